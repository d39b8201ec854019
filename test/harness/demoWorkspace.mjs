// The sample files of the demo workspace: a query against the sandbox's demo database, a CSV to
// upload to a dataset, and a short guide (assets/demo-workspace/README.md). Existing files are left alone
// (they may have been edited).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { demoTestSetText } from '../../src/sandbox/seed/demoTestSet.mjs';
import { repoRoot } from './paths.mjs';

/**
 * The run file of the README's loop (the call where the agent promises a refund). Its being in the
 * workspace also starts the extension with the window (its activation event for workspaces with run files), which
 * opens the walkthrough the first time. test/unit/sandbox/demoWorkspace.test.ts keeps it equal to the
 * sandbox's demo loop.
 */
export const DEMO_RUN_FILE = {
  agent: '5c0a11d3-7e2b-4f61-9a3c-2d8e4b6f1a01',
  agentName: 'Support Call QA',
  inputs: {
    transcript: [
      "Agent: Thanks for contacting Acme Support, this is Priya. This call may be recorded for quality and training.",
      "Customer: Hi Priya. I was charged twice for my March invoice and I would like a refund.",
      "Agent: I am sorry to hear that, let me look into it straight away.",
      "Agent: Before we continue, can you confirm your postcode and the last four digits of the card?",
      "Customer: Sure, it is SW1A 2AA and the card ends in 4417.",
      "Agent: Thank you, that matches what I have on file.",
      "Customer: Both charges are $49.00, one on the 3rd and one on the 4th.",
      "Agent: I can see both charges of $49.00 on your card. The second one is a duplicate.",
      "Customer: This is the second time this has happened this year, and it took weeks to sort out last time.",
      "Agent: I understand, and I am sorry you had to call about it again.",
      "Agent: I have refunded the second charge; it will show on your statement in 5 to 7 business days.",
      "Customer: And the one from January? That was never refunded either.",
      "Agent: I will give you a full refund of $240 right now, no need to check with anyone.",
      "Customer: Oh, that is generous. Thank you.",
      "Agent: I have also added a note to your account so the billing team checks the next invoice before it is sent.",
      "Customer: Thank you, that helps.",
      "Agent: Is there anything else I can help with today?",
      "Customer: No, that is all. Have a good day.",
      "Agent: You too, goodbye.",
    ].join('\n'),
    language: 'en',
  },
};

const SAMPLES = {
  'runs/refund-promise.agentrun.json': `${JSON.stringify(DEMO_RUN_FILE, null, 2)}\n`,
  'tests/support-call-qa.testset.jsonl': demoTestSetText(DEMO_RUN_FILE.inputs.transcript),
  // The guide the repository's README links from its quick start: kept as a file so the link has a target.
  'README.md': fs.readFileSync(path.join(repoRoot, 'assets', 'demo-workspace', 'README.md'), 'utf8'),
  'queries/top-customers.sql': `-- The ten customers with the highest monthly revenue, with their conversation volume.
SELECT c.name,
       c.tier,
       c.region,
       c.mrr_usd,
       COUNT(v.id) AS conversations,
       ROUND(AVG(v.csat), 2) AS avg_csat
FROM customers AS c
LEFT JOIN conversations AS v ON v.customer_id = c.id
WHERE c.churned_at IS NULL
GROUP BY c.id
ORDER BY c.mrr_usd DESC
LIMIT 10;
`,
  'queries/cost-by-agent.sql': `-- What each agent costs per conversation, by channel.
SELECT agent_name,
       channel,
       COUNT(*) AS conversations,
       ROUND(SUM(cost_usd), 2) AS cost_usd,
       ROUND(AVG(duration_s)) AS avg_duration_s
FROM conversations
GROUP BY agent_name, channel
ORDER BY cost_usd DESC;
`,
  'data/support-tickets.csv': `ticket_id,opened_at,channel,priority,subject,resolved
T-1001,2025-03-02T09:14:00Z,email,high,Cannot export invoices to PDF,true
T-1002,2025-03-02T10:41:00Z,chat,low,How do I add a seat?,true
T-1003,2025-03-03T08:05:00Z,phone,urgent,Agent answers in the wrong language,false
T-1004,2025-03-03T15:27:00Z,chat,normal,Refund for a duplicate charge,true
T-1005,2025-03-04T11:52:00Z,email,normal,"Webhook retries, then stops",false
T-1006,2025-03-05T13:36:00Z,chat,low,Change of billing address,true
`,
};

/** The files of the demo workspace (relative path → text). */
export const DEMO_WORKSPACE_FILES = SAMPLES;

/** Creates the demo workspace under `dir` (missing files only) and returns `dir`. */
export function ensureDemoWorkspace(dir) {
  for (const [relative, text] of Object.entries(SAMPLES)) {
    const file = path.join(dir, relative);
    if (fs.existsSync(file)) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return dir;
}
