// Builders of policy documents and preview messages for the summary preview tests.
import type { RenderView } from '../../../../src/core/summary/previewProtocol';

/** A rule of a guideline category. */
export function rule(title: string, flag?: 'GREEN_FLAG' | 'RED_FLAG', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { title, ...(flag ? { flag } : {}), ...extra };
}

/** Policy content with categories, classifications and a summary template (each part optional). */
export function policyContent(parts: { template?: unknown; categories?: unknown[]; classifications?: unknown[] } = {}): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (parts.categories) content.guidelines = { categories: parts.categories };
  if (parts.classifications) content.dispositions = { classifications: parts.classifications };
  if (parts.template !== undefined) content.summary_template = { template: parts.template };
  return content;
}

/** The policy document as the editor shows it: pretty JSON with a final newline. */
export function policyDocument(parts: Parameters<typeof policyContent>[0] = {}): string {
  return `${JSON.stringify(policyContent(parts), null, 2)}\n`;
}

/** The call-quality policy of the sandbox's demo data, in small. */
export const CALL_QUALITY = {
  categories: [
    {
      title: 'Identity verification',
      rules: [
        rule('Verifies the caller before sharing account details', 'GREEN_FLAG', {
          sub_rules: [rule('Asks for the account PIN', 'GREEN_FLAG'), rule('Reads out full card numbers', 'RED_FLAG')],
        }),
        rule('Shares account details with an unverified caller', 'RED_FLAG'),
      ],
    },
    { title: 'Resolution', rules: [rule('States a concrete next step', 'GREEN_FLAG'), rule('Confirms the customer understood')] },
  ],
  classifications: [
    { name: 'Compliant', description: 'No red flags.' },
    { name: 'Needs Review' },
    { name: 'Non-Compliant', prompt: 'Use when any RED_FLAG rule is present.' },
  ],
  template:
    '## Call review: {{verdict}}\n\n{{#if violations.length}}\n**Issues found**\n{{#each violations}}\n- {{this.rule}} — “{{this.evidence}}”\n{{/each}}\n{{else}}\nNo issues found.\n{{/if}}\n\nReviewed against {{policy_name}} ({{policy_version}}).',
};

/** A payload that would run script if the preview ever parsed output as HTML. */
export const XSS_PAYLOAD = '<script>alert("xss")</script><img src=x onerror="alert(1)">';

/** A render view as the extension sends it. */
export function renderView(overrides: Partial<RenderView> = {}): RenderView {
  return {
    sourceUri: 'agent-workbench:/policies/p/v/Policy · v1.json',
    title: 'Policy · v1',
    sourceKind: 'policy',
    output: 'Hello',
    truncated: false,
    templateError: null,
    dataError: null,
    notice: null,
    missingFields: [],
    ...overrides,
  };
}
