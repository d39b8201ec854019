import { fillMissing, sampleOfFields, templateFields } from './templateFields';

/**
 * The sample data a summary template is previewed with. Built from the policy itself so templates
 * written against the policy's own words work at once; every field is plain JSON the user can edit.
 *
 * ```
 * {
 *   disposition, verdict            name of the chosen classification (the first one)
 *   classification: {name, description, prompt}     the chosen one
 *   classifications: [{name, description, prompt}]  all of them
 *   summary                         a sentence standing for the agent's written summary
 *   categories: [{title, description, passed, rules: [Rule]}]
 *     Rule = {title, description, flag, passed, evidence, sub_rules: [Rule]}
 *     GREEN_FLAG rules pass (seen); the first RED_FLAG rule is raised (passed: false), others pass
 *   red_flags:   [{title, description, category, evidence}]   raised red-flag rules
 *   green_flags: [{title, description, category, evidence}]   green-flag rules seen
 *   violations:  [{rule, category, evidence}]                  the red flags again, as findings
 *   policy: {id, name, version}, policy_name, policy_version
 *   agent: {id, name}
 *   job: {id, created_at, status, agent_version_name, inputs: {key: value}, metadata: {…}}
 *   …and "‹name›" text for any other field the template prints (e.g. {{amount}})
 * }
 * ```
 */
export type SummarySample = Record<string, unknown>;

/** What the preview knows about where the template comes from. */
export interface SampleSource {
  policyId?: string;
  policyName?: string;
  versionName?: string;
}

interface SampleRule {
  title: string;
  description: string;
  flag: string | null;
  passed: boolean;
  evidence: string;
  sub_rules: SampleRule[];
}

interface Finding {
  title: string;
  description: string;
  category: string;
  evidence: string;
}

/** The default sample for a policy document: from its content, then any other field its template reads. */
export function buildSample(content: unknown, source: SampleSource, template?: string): SummarySample {
  const classifications = records(get(content, 'dispositions', 'classifications')).map((c) => ({
    name: text(c.name, 'Unnamed classification'),
    description: text(c.description),
    prompt: text(c.prompt),
  }));
  const chosen = classifications[0] ?? { name: 'Sample disposition', description: '', prompt: '' };
  const state = { redRaised: false };
  const red: Finding[] = [];
  const green: Finding[] = [];
  const categories = records(get(content, 'guidelines', 'categories')).map((category) => {
    const title = text(category.title, 'Untitled category');
    const rules = records(category.rules).map((rule) => sampleRule(rule, title, state, red, green));
    return { title, description: text(category.description), passed: rules.every((r) => r.passed), rules };
  });
  const sample: SummarySample = {
    disposition: chosen.name,
    verdict: chosen.name,
    classification: chosen,
    classifications,
    summary: red.length
      ? `Sample summary: the conversation raised ${red.length} red flag${red.length === 1 ? '' : 's'} (“${red[0]?.title}”).`
      : 'Sample summary: the conversation followed the policy.',
    categories,
    red_flags: red,
    green_flags: green,
    violations: red.map((f) => ({ rule: f.title, category: f.category, evidence: f.evidence })),
    policy: { id: source.policyId ?? '', name: source.policyName ?? '', version: source.versionName ?? '' },
    policy_name: source.policyName ?? '',
    policy_version: source.versionName ?? '',
    agent: { id: '00000000-0000-4000-8000-000000000000', name: 'Sample agent' },
    job: {
      id: '00000000-0000-4000-8000-000000000001',
      created_at: '2025-01-01T09:30:00Z',
      status: 'SUCCESS',
      agent_version_name: 'v1',
      inputs: { transcript: 'Agent: Thank you for calling, how can I help?\nCustomer: I was charged twice for my order.' },
      metadata: { channel: 'phone' },
    },
  };
  const fields = template === undefined ? undefined : templateFields(template);
  return fields ? (fillMissing(sample, sampleOfFields(fields)) as SummarySample) : sample;
}

function sampleRule(rule: Record<string, unknown>, category: string, state: { redRaised: boolean }, red: Finding[], green: Finding[]): SampleRule {
  const title = text(rule.title, 'Untitled rule');
  const flag = rule.flag === 'GREEN_FLAG' || rule.flag === 'RED_FLAG' ? rule.flag : null;
  // One raised red flag makes "issues found" branches of templates visible; the rest of the sample is clean.
  const raised = flag === 'RED_FLAG' && !state.redRaised;
  if (raised) state.redRaised = true;
  const evidence = flag ? `Quote from the conversation showing “${title}”.` : '';
  const finding = { title, description: text(rule.description), category, evidence };
  if (raised) red.push(finding);
  if (flag === 'GREEN_FLAG') green.push(finding);
  const sub_rules = records(rule.sub_rules).map((sub) => sampleRule(sub, category, state, red, green));
  return { title, description: finding.description, flag, passed: !raised && sub_rules.every((r) => r.passed), evidence, sub_rules };
}

function get(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) current = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)) : [];
}

function text(value: unknown, fallback = ''): string {
  return typeof value === 'string' && value.trim() ? value : fallback;
}
