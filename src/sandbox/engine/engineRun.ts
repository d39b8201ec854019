/**
 * The sandbox's engine: deterministic and explainable, not a model. A job of a version whose
 * `engine_config.policy_id` names a policy is judged by that policy's content: which rules matched
 * which text (ruleMatching.ts), the disposition chosen among its classifications (disposition.ts), and
 * the summary rendered from its `summary_template` with the summary preview's own Handlebars. The same
 * inputs, version and policy content always give the same outputs.
 */
import { createHash } from 'node:crypto';
import { renderTemplate } from '../../core/summary/render';
import { chooseDisposition, dispositionNames } from './disposition';
import { readPolicy, type PolicyRule } from './policyRules';
import { matchRules, type EngineInput, type RuleMatch } from './ruleMatching';
import { templateContext, type JobContext } from './templateContext';

/** The policy version a job is judged by. */
export interface EnginePolicy {
  id: string;
  name: string;
  versionId: string;
  versionName: string;
  content: unknown;
}

/** What the engine is asked. */
export interface EngineRequest {
  inputs: EngineInput[];
  policy: EnginePolicy | undefined;
  /** The engine class's verdicts, best first: the choice when the policy has no classifications, or there is no policy. */
  verdicts: readonly string[];
  /** The job's inputs hash: picks the verdict of a job without a policy. */
  inputsHash: string;
  about: Omit<JobContext, 'policy'>;
}

/** One output, as the result endpoints show it (the job's cost is filled in by {@link runEngine}). */
export interface EngineOutput {
  key: string;
  description: string;
  data_type: string;
  value: string;
  cost: number;
}

/** What a job answers. */
export interface EngineOutcome {
  disposition: string;
  outputs: EngineOutput[];
  inputTokens: number;
  outputTokens: number;
  cost: number;
  /** Full results kept apart from the outputs, by artifact key (the `evidence_data` output names them). */
  artifacts?: Record<string, unknown>;
}

/** Prices of the sandbox's pretend model, in dollars per token. */
const INPUT_PRICE = 2.5e-6;
const OUTPUT_PRICE = 10e-6;

/** Judges one job's inputs. Pure: no clock, no randomness. */
export function runEngine(request: EngineRequest): EngineOutcome {
  const { policy } = request;
  if (!policy) return withoutPolicy(request);
  const read = readPolicy(policy.content);
  const matches = matchRules(read.rules, request.inputs);
  const disposition = chooseDisposition(read.rules, matches, dispositionNames(read.classifications, request.verdicts));
  const context = templateContext(read, matches, disposition, request.inputs, {
    ...request.about,
    policy: { id: policy.id, name: policy.name, version: policy.versionName },
  });
  const summary = read.template === undefined ? `**${disposition.name}**\n\n${String(context.summary)}` : renderSummary(read.template, context);
  const matched = matches.map((m) => ({ category: m.rule.category, rule: m.rule.title, flag: m.rule.flag, input: m.input, evidence: m.evidence, found: m.found }));
  const outcome = priced(request, JSON.stringify(policy.content) ?? '', [
    text('disposition', 'The classification chosen from the policy.', disposition.name),
    { key: 'summary', description: 'The summary, rendered from the policy’s summary template.', data_type: 'text/markdown', value: summary, cost: 0 },
    json('matched_rules', 'The rules of the policy that matched, with the text that matched.', matched),
    json('policy', 'The policy version the job was judged by.', { id: policy.id, name: policy.name, version_id: policy.versionId, version_name: policy.versionName, reason: disposition.reason }),
  ]);
  return withRuleChecks(outcome, request, read.rules, matches);
}

/**
 * Every rule of the policy checked, matched or not, kept apart as an artifact (as the live service keeps
 * a tool's full result) and named by key in the `evidence_data` output. Not priced: it is not an answer.
 */
function withRuleChecks(outcome: EngineOutcome, request: EngineRequest, rules: readonly PolicyRule[], matches: readonly RuleMatch[]): EngineOutcome {
  const key = `agent-job-${request.about.job.id}/rule_checks.json`;
  const byRule = new Map(matches.map((m) => [m.rule, m]));
  const checks = rules.map((rule) => {
    const match = byRule.get(rule);
    return { category: rule.category, rule: rule.title, flag: rule.flag, matched: match !== undefined, input: match?.input ?? null, evidence: match?.evidence ?? null };
  });
  const evidence: EngineOutput = {
    key: 'evidence_data',
    description: 'Keys of full results kept apart from the outputs (read one with …/artifacts/result/?artifact_key=).',
    data_type: 'application/json',
    value: JSON.stringify({ rule_checks: key }),
    cost: outcome.cost,
  };
  return { ...outcome, outputs: [...outcome.outputs, evidence], artifacts: { [key]: { rules: checks } } };
}

/** The cache key part that a policy adds: a change of the policy's current content is a cache miss. */
export function policyFingerprint(policy: EnginePolicy | undefined): string {
  if (!policy) return '';
  return createHash('sha256').update(policy.id).update('\n').update(JSON.stringify(policy.content) ?? '').digest('hex').slice(0, 32);
}

function withoutPolicy(request: EngineRequest): EngineOutcome {
  const verdicts = request.verdicts.length > 0 ? request.verdicts : ['Done'];
  const h = parseInt(request.inputsHash.slice(8, 16), 16) || 0;
  const verdict = verdicts[h % verdicts.length]!;
  return priced(request, '', [
    text('disposition', 'The verdict of the engine.', verdict),
    {
      key: 'summary', description: 'What the engine concluded.', data_type: 'text/markdown', cost: 0,
      value: `**${verdict}**\n\nThis version names no policy (engine_config.policy_id), so the sandbox's engine picked the verdict from the inputs alone.`,
    },
  ]);
}

function renderSummary(template: string, context: Record<string, unknown>): string {
  const rendered = renderTemplate(template, context);
  return rendered.ok ? rendered.output : `The policy’s summary template could not be rendered: ${rendered.error.message}`;
}

/** Tokens from the size of what the pretend model reads (inputs and policy) and writes (outputs). */
function priced(request: EngineRequest, policyText: string, outputs: EngineOutput[]): EngineOutcome {
  const inputChars = request.inputs.reduce((sum, i) => sum + i.key.length + i.text.length, 0) + policyText.length;
  const inputTokens = Math.ceil(inputChars / 4);
  const outputTokens = Math.ceil(outputs.reduce((sum, o) => sum + o.value.length, 0) / 4);
  const cost = Math.round((inputTokens * INPUT_PRICE + outputTokens * OUTPUT_PRICE) * 1e6) / 1e6;
  return { disposition: outputs[0]!.value, outputs: outputs.map((o) => ({ ...o, cost })), inputTokens, outputTokens, cost };
}

function text(key: string, description: string, value: string): EngineOutput {
  return { key, description, data_type: 'text/plain', value, cost: 0 };
}

function json(key: string, description: string, value: unknown): EngineOutput {
  return { key, description, data_type: 'application/json', value: JSON.stringify(value), cost: 0 };
}
