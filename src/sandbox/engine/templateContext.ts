/**
 * The data a policy's summary template is rendered with: the same fields as the summary preview's
 * sample (src/core/summary/sampleContext.ts), filled from what the engine found instead of samples.
 */
import type { Disposition } from './disposition';
import type { EngineInput, RuleMatch } from './ruleMatching';
import type { PolicyRule, ReadPolicy } from './policyRules';

/** Who and what a job is, as the template sees it. */
export interface JobContext {
  agent: { id: string; name: string };
  job: { id: string; created_at: string; agent_version_name: string | null; metadata: Record<string, unknown> };
  policy: { id: string; name: string; version: string };
}

interface RuleView {
  title: string;
  description: string;
  flag: string | null;
  matched: boolean;
  passed: boolean;
  evidence: string;
  sub_rules: RuleView[];
}

/** The template's data for one job. */
export function templateContext(policy: ReadPolicy, matches: readonly RuleMatch[], disposition: Disposition, inputs: readonly EngineInput[], about: JobContext): Record<string, unknown> {
  const byRule = new Map(matches.map((m) => [m.rule, m]));
  const view = (rule: PolicyRule): RuleView => {
    const match = byRule.get(rule);
    const sub_rules = rule.subRules.map(view);
    const passed = (rule.flag === 'RED_FLAG' ? !match : rule.flag === 'GREEN_FLAG' ? !!match : true) && sub_rules.every((r) => r.passed);
    return { title: rule.title, description: rule.description, flag: rule.flag, matched: !!match, passed, evidence: match?.evidence ?? '', sub_rules };
  };
  const finding = (m: RuleMatch) => ({ title: m.rule.title, description: m.rule.description, category: m.rule.category, evidence: m.evidence });
  const red = matches.filter((m) => m.rule.flag === 'RED_FLAG');
  const green = matches.filter((m) => m.rule.flag === 'GREEN_FLAG');
  const classification = policy.classifications.find((c) => c.name === disposition.name) ?? { name: disposition.name, description: '', prompt: '' };
  return {
    disposition: disposition.name,
    verdict: disposition.name,
    class: disposition.name,
    classification,
    classifications: policy.classifications,
    summary: summarySentence(red, green, disposition),
    categories: policy.categories.map((c) => {
      const rules = c.rules.map(view);
      return { title: c.title, description: c.description, passed: rules.every((r) => r.passed), rules };
    }),
    red_flags: red.map(finding),
    green_flags: green.map(finding),
    violations: red.map((m) => ({ rule: m.rule.title, category: m.rule.category, evidence: m.evidence })),
    matches: matches.map((m) => ({ rule: m.rule.title, category: m.rule.category, flag: m.rule.flag, input: m.input, evidence: m.evidence })),
    evidence: matches.map((m) => m.evidence),
    amount: firstAmount(inputs),
    // How sure a deterministic engine is: how many rules it found evidence for.
    confidence: Math.min(99, 60 + 8 * matches.length),
    route: '',
    policy: about.policy,
    policy_name: about.policy.name,
    policy_version: about.policy.version,
    agent: about.agent,
    job: { ...about.job, status: 'SUCCESS', inputs: Object.fromEntries(inputs.map((i) => [i.key, i.text])) },
  };
}

/** One sentence standing for the written summary an LLM engine would give. */
export function summarySentence(red: readonly RuleMatch[], green: readonly RuleMatch[], disposition: Disposition): string {
  const parts: string[] = [];
  if (red.length > 0) parts.push(`${red.length} red flag${red.length === 1 ? '' : 's'} (${red.map((m) => `“${m.rule.title}”`).join(', ')})`);
  if (green.length > 0) parts.push(`${green.length} green flag${green.length === 1 ? '' : 's'}`);
  const found = parts.length > 0 ? `Found ${parts.join(' and ')}.` : 'No rule of the policy matched.';
  return `${found} ${disposition.reason}`;
}

function firstAmount(inputs: readonly EngineInput[]): string {
  for (const input of inputs) {
    const match = /\$\s?(\d[\d,]*(?:\.\d+)?)/.exec(input.text);
    if (match) return match[1]!;
  }
  return '';
}
