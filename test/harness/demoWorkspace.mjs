// The sample files of the demo workspace: a query against the sandbox's demo database, a CSV to
// upload to a dataset, and a short guide. Existing files are left alone (they may have been edited).
import * as fs from 'node:fs';
import * as path from 'node:path';

const SAMPLES = {
  'README.md': `# Agent Workbench demo

This workspace is connected to a local sandbox with demo data.

- Open the **Agent Workbench** view in the activity bar: agents (versions, jobs), policies, datasets.
- \`queries/top-customers.sql\` runs against the sandbox's demo database.
- \`data/support-tickets.csv\` can be uploaded to a dataset (right-click a dataset).
`,
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
