// How the command line says a mistake in its call: one line in the command's words, and where its help is.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/cli';

// Nothing listens there: a command that got as far as the service would say so instead.
const NOWHERE = { AGENT_WORKBENCH_BASE_URL: 'http://127.0.0.1:9', AGENT_WORKBENCH_TOKEN: 'token', AGENT_WORKBENCH_ORGANIZATION_ID: '3f2b8c1e-0d4a-4c57-9a1e-6b5f0e2d9c11' };

describe('agent-workbench usage errors (one line in the command’s words, and where its help is)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aw-usage-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  async function cli(args: string[], env: Record<string, string> = NOWHERE): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l), cwd: dir });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('says an option without its value, an unknown option and a stray argument in one line each, then where the help is', async () => {
    const cases: [string[], string][] = [
      [['try', '--test-set', 'x.testset.jsonl', '--policy'], 'agent-workbench try: --policy needs a value.\nSee agent-workbench try --help.'],
      [['try', '--policy', '--test-set', 'x.testset.jsonl'], 'agent-workbench try: --policy needs a value.\nSee agent-workbench try --help.'],
      [['try', '--bogus'], 'agent-workbench try: unknown option --bogus.\nSee agent-workbench try --help.'],
      [['clean-up', '--yes=no'], 'agent-workbench clean-up: --yes takes no value.\nSee agent-workbench clean-up --help.'],
      [['clean-up', 'now'], 'agent-workbench clean-up: it takes no argument "now".\nSee agent-workbench clean-up --help.'],
      [['mcp', '--port', 'eighty'], 'agent-workbench mcp: --port takes a whole number from 0 to 65535, not "eighty".\nSee agent-workbench mcp --help.'],
      [['sandbox', '--bogus'], 'agent-workbench sandbox: unknown option --bogus.\nSee agent-workbench sandbox --help.'],
      [['sandbox', '--port'], 'agent-workbench sandbox: --port needs a value.\nSee agent-workbench sandbox --help.'],
      [['try', '--test-set', 'x.testset.jsonl'], 'agent-workbench try: --test-set is needed, with either --policy or both --agent and --draft.\nSee agent-workbench try --help.'],
      [['nonsense'], 'agent-workbench: there is no command "nonsense".\nSee agent-workbench --help.'],
    ];
    for (const [args, said] of cases) {
      const { code, out, err } = await cli(args);
      assert.equal(err, said, args.join(' '));
      assert.equal(out, '', args.join(' '));
      assert.equal(code, 2, args.join(' '));
    }
  });

  it('shows the sandbox’s options under agent-workbench sandbox --help, never how to run it from the project', async () => {
    const { code, out } = await cli(['sandbox', '--help']);
    assert.equal(code, 0);
    assert.match(out, /^Usage: agent-workbench sandbox \[options\]/);
    assert.match(out, /--job-step-ms N/);
    assert.doesNotMatch(out, /npm run sandbox/);
  });

  it('says a file it cannot read in a sentence, never in an error code', async () => {
    await fs.mkdir(path.join(dir, 'cases.testset.jsonl'));
    await fs.writeFile(path.join(dir, 'quality.policy.json'), '{}');
    const missing = await cli(['try', '--policy', 'quality.policy.json', '--test-set', 'loop.testset.jsonl']);
    assert.equal(missing.err, 'agent-workbench try: cannot read loop.testset.jsonl: no such file.');
    assert.equal(missing.code, 2);
    const folder = await cli(['try', '--policy', 'quality.policy.json', '--test-set', 'cases.testset.jsonl']);
    assert.equal(folder.err, 'agent-workbench try: cannot read cases.testset.jsonl: it is a folder.');
    await fs.writeFile(path.join(dir, 'loop.testset.jsonl'), '{"inputs": {"transcript": "hi"}}\n');
    const noPolicy = await cli(['try', '--policy', 'gone.policy.json', '--test-set', 'loop.testset.jsonl']);
    assert.equal(noPolicy.err, 'agent-workbench try: cannot read gone.policy.json: no such file.');
    const noDraft = await cli(['try', '--agent', 'a1', '--draft', 'next.json', '--test-set', 'loop.testset.jsonl']);
    assert.equal(noDraft.err, 'agent-workbench try: cannot read next.json: no such file.');
  });

  it('needs AGENT_WORKBENCH_ORGANIZATION_ID, and says so before anything runs (the MCP server says it to each call instead: see its own tests)', async () => {
    const { AGENT_WORKBENCH_ORGANIZATION_ID: _, ...noOrganization } = NOWHERE;
    for (const command of [['try', '--policy', 'p.policy.json', '--test-set', 't.testset.jsonl'], ['clean-up']]) {
      const { code, err } = await cli(command, noOrganization);
      assert.equal(err, `agent-workbench ${command[0]}: AGENT_WORKBENCH_ORGANIZATION_ID must be set: the id of the organization to work in (a UUID; the service has no call that lists a user's organizations).\nSee agent-workbench ${command[0]} --help.`);
      assert.equal(code, 2);
    }
    const notAnId = await cli(['clean-up'], { ...NOWHERE, AGENT_WORKBENCH_ORGANIZATION_ID: 'acme' });
    assert.match(notAnId.err, /^agent-workbench clean-up: AGENT_WORKBENCH_ORGANIZATION_ID is not an organization id: An organization ID is a UUID/);
    const help = await cli(['--help']);
    assert.doesNotMatch(help.out, /optional/);
  });
});
