/**
 * The files `agent-workbench init` starts a folder with: the demo's labelled test set and the demo
 * policy with the README's edit under review (its base is the sandbox's current version, so the docs'
 * CI recipe runs against a new sandbox as it is), a short README and the connection's variables.
 */
import { policyFileText } from '../core/trial/policyFile';
import { demoLoopEditContent } from '../sandbox/seed/demoEdit';
import { DEMO_LOOP_POLICY_ID, DEMO_LOOP_POLICY_NAME, DEMO_LOOP_POLICY_VERSION_ID, DEMO_LOOP_RULE_TITLE, DEMO_LOOP_TRANSCRIPT } from '../sandbox/seed/demoLoop';
import { demoTestSetText } from '../sandbox/seed/demoTestSet.mjs';

/** Where init puts the test set and the policy file (the docs' CI recipe names them). */
export const INIT_TEST_SET = 'cases/support-call-qa.testset.jsonl';
export const INIT_POLICY_FILE = 'policies/quality.policy.json';

/** The command that tries the policy edit as CI would, with the gate the demo's edit passes. */
export const INIT_TRY = `npx agent-workbench try --policy ${INIT_POLICY_FILE} --test-set ${INIT_TEST_SET} --out trial --min-accuracy 75 --max-newly-wrong 1 --min-rule-coverage 70`;

const README = `# Trying policy edits with agent-workbench

\`agent-workbench init\` wrote:

- \`${INIT_TEST_SET}\`: a dozen support calls of the sandbox's demo agent *Support Call QA*, each labelled
  with the disposition the QA team expects (\`expected\`).
- \`${INIT_POLICY_FILE}\`: the sandbox's demo policy *${DEMO_LOOP_POLICY_NAME}* with one edit under review:
  the rule "${DEMO_LOOP_RULE_TITLE}" is no longer a red flag.
- \`.env.example\`: the three variables the command line reads its connection from.

## Against the local sandbox (no account)

\`\`\`sh
npx agent-workbench sandbox --memory --port 4010 > sandbox.json &   # prints baseUrl, organizationId, token
until [ -s sandbox.json ]; do sleep 0.2; done
export AGENT_WORKBENCH_BASE_URL=$(node -p "require('./sandbox.json').baseUrl")
export AGENT_WORKBENCH_ORGANIZATION_ID=$(node -p "require('./sandbox.json').organizationId")
export AGENT_WORKBENCH_TOKEN=$(node -p "require('./sandbox.json').token")
${INIT_TRY}
\`\`\`

It runs the calls on copies (nothing is published), prints "Support Call QA: accuracy 58% → 75%: 3 cases
became right, 1 became wrong." and exits 0: the edit passes the gate. \`trial/\` holds the comparison and
its Markdown summary for the pull request. Stop the sandbox with \`kill %1\`.

## Against your service

Set the three variables (see \`.env.example\`; the command line reads the environment, not the file), then
export the policy to edit and try your edit on a test set of your agent:

\`\`\`sh
npx agent-workbench export-policy "Your policy's name" --out policies   # policies/your-policy-s-name.policy.json
npx agent-workbench try --policy policies/your-policy-s-name.policy.json --test-set cases/your-agent.testset.jsonl --out trial
\`\`\`

A test set holds one case a line: \`{"name": "…", "inputs": {"transcript": "…", "language": "en"}, "expected": "Compliant"}\`
(the inputs your agent takes). \`npx agent-workbench --help\` lists the commands, and each its options.
`;

const ENV_EXAMPLE = `# The connection of agent-workbench (try, export-policy, clean-up, mcp): all three are needed.
# The command line reads them from the environment (set -a; . ./.env; set +a), never from this file.
# For the local sandbox, agent-workbench sandbox prints them as one JSON line.
AGENT_WORKBENCH_BASE_URL=https://
AGENT_WORKBENCH_ORGANIZATION_ID=
AGENT_WORKBENCH_TOKEN=
`;

// The sandbox's ready line and a .env hold a token; the trial's files are a run's, not the repository's.
const GITIGNORE = `.env
sandbox.json
trial/
node_modules/
`;

/** The files of a new folder, by path relative to it. */
export function initFiles(): Record<string, string> {
  return {
    'README.md': README,
    '.env.example': ENV_EXAMPLE,
    '.gitignore': GITIGNORE,
    [INIT_TEST_SET]: demoTestSetText(DEMO_LOOP_TRANSCRIPT),
    [INIT_POLICY_FILE]: policyFileText({ id: DEMO_LOOP_POLICY_ID, name: DEMO_LOOP_POLICY_NAME }, DEMO_LOOP_POLICY_VERSION_ID, demoLoopEditContent()),
  };
}
