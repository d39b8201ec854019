import type { PolicyContent } from './documents/policyContent';

/** Starting content for *New Policy…*: a complete example to adapt, or an empty skeleton. */
export interface PolicyTemplate {
  id: string;
  label: string;
  detail: string;
  content: PolicyContent;
}

export const POLICY_TEMPLATES: readonly PolicyTemplate[] = [
  {
    id: 'conversation-review',
    label: 'Conversation review',
    detail: 'Guidelines with green and red flags, three dispositions and a summary template',
    content: {
      instructions: 'Review the conversation against every rule below. Quote the part of the conversation that supports each flag.',
      guidelines: {
        categories: [
          {
            title: 'Greeting and identification',
            description: 'How the conversation starts.',
            rules: [
              { title: 'Greets the customer and gives their name', flag: 'GREEN_FLAG' },
              {
                title: 'Verifies the customer before discussing the account',
                flag: 'GREEN_FLAG',
                sub_rules: [{ title: 'Asks for two identifiers', description: 'For example the email address and the last four digits of the card.' }],
              },
            ],
          },
          {
            title: 'Compliance',
            rules: [
              { title: 'Shares account details before verification', flag: 'RED_FLAG' },
              { title: 'Promises a refund above the agent’s limit', flag: 'RED_FLAG', description: 'Refunds above the limit need a supervisor.' },
            ],
          },
        ],
      },
      dispositions: {
        classifications: [
          { name: 'Resolved', description: 'The customer’s issue was solved in this conversation.', prompt: 'Use when the customer confirms the issue is solved.' },
          { name: 'Escalated', description: 'Handed to a supervisor or another team.', prompt: 'Use when the conversation ends with a transfer.' },
          { name: 'Unresolved', description: 'The issue remains open.', prompt: 'Use when neither of the above applies.' },
        ],
      },
      summary_template: {
        template: 'Disposition: {{disposition}}\n{{#if red_flags.length}}Red flags:\n{{#each red_flags}}- {{this.title}}\n{{/each}}{{else}}No red flags.{{/if}}',
      },
    },
  },
  {
    id: 'empty',
    label: 'Empty',
    detail: 'The four sections, with nothing in them',
    content: {
      instructions: '',
      guidelines: { categories: [] },
      dispositions: { classifications: [] },
      summary_template: { template: '' },
    },
  },
];
