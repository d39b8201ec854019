/** Policy contents of the demo seed: realistic guidelines, dispositions, instructions and templates, in several versions. */

type Rule = { title: string; description?: string; flag?: 'GREEN_FLAG' | 'RED_FLAG'; sub_rules?: Rule[] };
type Category = { title: string; description?: string; rules: Rule[] };
type Classification = { name: string; description?: string; prompt?: string };

/** One demo policy: its name, description, and the content of each version, oldest first. */
export interface DemoPolicy {
  key: string;
  name: string;
  description: string;
  versions: { versionName?: string; content: Record<string, unknown> }[];
}

function content(categories: Category[], classifications: Classification[], instructions: string, template: string) {
  return {
    guidelines: { categories },
    dispositions: { classifications },
    instructions,
    summary_template: { template },
  };
}

const callQualityCategories = (withEmpathy: boolean, withDisclosure: boolean): Category[] => [
  {
    title: 'Identity verification',
    description: 'The agent confirms who they are talking to before discussing the account.',
    rules: [
      {
        title: 'Verifies the caller before sharing account details',
        description: 'At least two of: full name, postcode, last four digits of the card, account PIN. Listen for “confirm your postcode”.',
        flag: 'GREEN_FLAG',
        sub_rules: [
          { title: 'Asks for the account PIN or a one-time code', description: 'Listen for “account PIN” or “one-time code”.', flag: 'GREEN_FLAG' },
          { title: 'Reads out full card numbers or passwords', description: 'Never acceptable, even after verification. Listen for “the card on file is”.', flag: 'RED_FLAG' },
        ],
      },
      { title: 'Shares account details with an unverified caller', description: 'Listen for “without verifying”.', flag: 'RED_FLAG' },
    ],
  },
  {
    title: 'Resolution',
    rules: [
      { title: 'States a concrete next step and timeline', description: 'Listen for “business days”, “should arrive by” or “valid for”.', flag: 'GREEN_FLAG' },
      { title: 'Promises outcomes outside policy (refunds over limit, free upgrades)', description: 'Listen for “no need to check with anyone” or “free upgrade”.', flag: 'RED_FLAG' },
      { title: 'Confirms the customer understood the resolution', description: 'Listen for “that helps” or “does that make sense”.', flag: 'GREEN_FLAG' },
    ],
  },
  ...(withEmpathy
    ? [{
        title: 'Tone and empathy',
        description: 'How the customer is made to feel during the conversation.',
        rules: [
          { title: 'Acknowledges the customer’s frustration in their own words', description: 'Listen for “how frustrating” or “I am sorry”.', flag: 'GREEN_FLAG' as const },
          { title: 'Interrupts or talks over the customer repeatedly', description: 'Listen for “let me finish” or “as I already said”.', flag: 'RED_FLAG' as const },
        ],
      }]
    : []),
  ...(withDisclosure
    ? [{
        title: 'Required disclosures',
        rules: [
          {
            title: 'Mentions call recording at the start',
            description: 'Listen for “may be recorded”.',
            flag: 'GREEN_FLAG' as const,
            sub_rules: [{ title: 'Offers an unrecorded line when the customer objects', description: 'Listen for “unrecorded line”.', flag: 'GREEN_FLAG' as const }],
          },
        ],
      }]
    : []),
];

const callDispositions: Classification[] = [
  { name: 'Compliant', description: 'No red flags; all required steps taken.', prompt: 'Use when every red-flag rule is absent and identity was verified.' },
  { name: 'Needs Review', description: 'Ambiguous evidence; a supervisor should listen to the call.', prompt: 'Use when the transcript is incomplete or a rule is only partly met.' },
  { name: 'Non-Compliant', description: 'At least one red flag occurred.', prompt: 'Use when any RED_FLAG rule is clearly present.' },
];

const reviewTemplate = `## Call review: {{verdict}}

{{#if violations.length}}
**Issues found**
{{#each violations}}
- {{this.rule}} — “{{this.evidence}}”
{{/each}}
{{else}}
No issues found.
{{/if}}

Reviewed against {{policy_name}} ({{policy_version}}).`;

const refundCategories = (cap: number): Category[] => [
  {
    title: 'Eligibility',
    description: `Refunds up to $${cap} may be granted by front-line agents; above that needs a supervisor.`,
    rules: [
      { title: 'Checks the purchase date against the 30-day window', description: 'Listen for “purchase date” or “within 30 days”.', flag: 'GREEN_FLAG' },
      { title: `Grants a refund above $${cap} without supervisor approval`, description: 'A Refund over limit. Listen for “no need to check with anyone”.', flag: 'RED_FLAG' },
      {
        title: 'Duplicate charges are refunded in full',
        description: 'Listen for “duplicate charge”.',
        flag: 'GREEN_FLAG',
        sub_rules: [{ title: 'Confirms both charges in the billing system before refunding', description: 'Listen for “I can see”.', flag: 'GREEN_FLAG' }],
      },
    ],
  },
  {
    title: 'Communication',
    rules: [
      { title: 'Tells the customer when the money will arrive (5–7 business days)', description: 'Listen for “business days”.', flag: 'GREEN_FLAG' },
      { title: 'Blames the customer for the billing error', description: 'Listen for “your fault”.', flag: 'RED_FLAG' },
    ],
  },
];

const refundDispositions: Classification[] = [
  { name: 'Refund correctly handled', prompt: 'Eligibility checked, amount within limits, timeline communicated.' },
  { name: 'Refund over limit', prompt: 'A refund above the agent limit was granted or promised.' },
  { name: 'Refund wrongly denied', prompt: 'The customer was eligible but the refund was refused.' },
];

const documentCategories = (withKyc: boolean): Category[] => [
  {
    title: 'Invoices and receipts',
    rules: [
      { title: 'Has an invoice number, a supplier and a total amount', description: 'Then it is an Invoice. Invoice files are named “INV-” and a number.', flag: 'GREEN_FLAG' },
      { title: 'Shows “paid” with a payment method', description: 'Then it is a Receipt, not an Invoice. Receipt files are named “RCPT-” and a number.' },
    ],
  },
  {
    title: 'Orders and contracts',
    rules: [
      { title: 'Has a PO number and delivery terms', description: 'Purchase Order. Order files are named “PO-” and a number.' },
      { title: 'Has signature blocks and a term/termination clause', description: 'Contract. Contract files are named “CTR-” and a number.' },
      { title: 'Scanned letters and anything unreadable', description: 'Other. Scans are named “SCAN-” and a number.' },
    ],
  },
  ...(withKyc
    ? [{
        title: 'Identity documents',
        description: 'KYC documents must never be routed to the general inbox.',
        rules: [
          { title: 'Passport, ID card or driving licence', flag: 'RED_FLAG' as const, sub_rules: [{ title: 'Route to the KYC queue and redact the document number' }] },
        ],
      }]
    : []),
];

const documentDispositions: Classification[] = [
  { name: 'Invoice', description: 'A request for payment.' },
  { name: 'Receipt', description: 'Proof of a completed payment.' },
  { name: 'Purchase Order', description: 'An order placed with a supplier.' },
  { name: 'Contract', description: 'A signed agreement.' },
  { name: 'Other', description: 'Anything else; a person will look at it.', prompt: 'Use only when no other class fits.' },
];

/** The demo organization's policies. */
export const DEMO_POLICIES: DemoPolicy[] = [
  {
    key: 'call-quality',
    name: 'Customer Call Quality Standard',
    description: 'What every support call must get right: verification, resolution, tone and disclosures.',
    versions: [
      { content: content(callQualityCategories(false, false), callDispositions.slice(0, 2).concat(callDispositions[2]!), 'Review the transcript against each rule. Quote the transcript as evidence for every flag you raise.', reviewTemplate) },
      { content: content(callQualityCategories(true, false), callDispositions, 'Review the transcript against each rule. Quote the transcript as evidence for every flag you raise. Ignore small talk.', reviewTemplate) },
      { versionName: 'Q2 update: recording disclosure', content: content(callQualityCategories(true, true), callDispositions, 'Review the transcript against each rule, in order. Quote the transcript as evidence for every flag you raise. Ignore small talk. When the call was cut off, answer Needs Review.', reviewTemplate) },
    ],
  },
  {
    key: 'refunds',
    name: 'Refund & Billing Compliance',
    description: 'Limits and wording for refunds, credits and billing corrections.',
    versions: [
      { content: content(refundCategories(100), refundDispositions, 'Decide whether the refund was handled within policy.', '{{disposition}}: {{#if amount}}${{amount}}{{/if}} — {{summary}}') },
      { content: content(refundCategories(150), refundDispositions, 'Decide whether the refund was handled within policy. The agent limit is $150 since March.', '{{disposition}}: {{#if amount}}${{amount}}{{/if}} — {{summary}}') },
      { versionName: 'Supervisor approvals', content: content(refundCategories(150), refundDispositions, 'Decide whether the refund was handled within policy. The agent limit is $150. A supervisor approval must be named in the transcript.', '**{{disposition}}**{{#if amount}} (${{amount}}){{/if}}\n\n{{summary}}\n\n{{#each evidence}}> {{this}}\n{{/each}}') },
    ],
  },
  {
    key: 'documents',
    name: 'Document Intake Classification Guide',
    description: 'How incoming documents are classified and routed.',
    versions: [
      { content: content(documentCategories(false), documentDispositions, 'Classify the document into exactly one class. Use the first page only.', '{{class}} ({{confidence}}%)') },
      { content: content(documentCategories(true), documentDispositions, 'Classify the document into exactly one class. Use all pages. Identity documents go to the KYC queue.', '{{class}} ({{confidence}}%){{#if route}} → {{route}}{{/if}}') },
    ],
  },
  {
    key: 'social',
    name: 'Social Media Escalation Playbook',
    description: 'When a public complaint must be escalated to the social team. Draft, not used by any agent yet.',
    versions: [
      { content: { instructions: 'Escalate any public post that mentions legal action, a journalist, or more than 1,000 followers.' } },
      { content: {
        instructions: 'Escalate any public post that mentions legal action, a journalist, or more than 1,000 followers. Reply within one hour during business hours.',
        dispositions: { classifications: [{ name: 'Escalate', prompt: 'Legal threat, press, or high reach.' }, { name: 'Reply normally' }] },
      } },
    ],
  },
];

/** The second organization's one policy. */
export const OTHER_POLICY: DemoPolicy = {
  key: 'dispatch',
  name: 'Dispatch Call Standard',
  description: 'Checks for driver dispatch calls.',
  versions: [
    { content: content([{ title: 'Safety', rules: [{ title: 'Confirms the driver has a rest break scheduled', flag: 'GREEN_FLAG' }] }], [{ name: 'OK' }, { name: 'Escalate' }], 'Check the dispatch call for safety issues.', '{{verdict}}') },
  ],
};
