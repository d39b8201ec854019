/**
 * The one question before a comparison starts or resumes, in words: what starts, what is followed, what
 * is left out and why (a refused target, a file outside the workspace, another agent's job), what it
 * will likely cost and which files go. Built from the record as it will run, so every count is true.
 */
import { plural, workLeft } from './comparisonProgress';
import { casesToStart, hasStarted, type ComparisonRecord } from './comparisonRecord';
import { filesToSend, type RefusedInput } from './comparisonInputs';

/** What was learnt before asking, besides the record. */
export interface StartFacts {
  /** The likely cost, in words ("about 180k tokens, …"), when it could be told. */
  cost?: string;
  /** Cases whose file inputs are never sent (marked refused in the record already). */
  refused?: readonly RefusedInput[];
  /** Job ids that are another agent's (marked in the record already, so not followed): left alone. */
  foreign?: readonly string[];
  /**
   * The agents the jobs start on, as the service names them (agentsToStart, each read): the
   * question names these, never the file's name for the agent, since a yes is what lets them run.
   */
  agents?: readonly { id: string; name: string }[];
}

/** The confirmation's title, detail and button; `starts` is the number of jobs the button starts. */
export interface StartQuestion {
  message: string;
  detail: string;
  button: string;
  starts: number;
}

/**
 * The question for this record: "Start comparison …?" before anything ran, "Resume …?" after. The counts
 * are the record's: a failed target and a refused case are marked in it before asking.
 */
export function startQuestion(record: ComparisonRecord, facts: StartFacts = {}): StartQuestion {
  const { toStart: starts, unfinished: follows } = workLeft(record);
  const foreign = facts.foreign ?? [];
  // The file's name for its agent is only a label: the service's name is used when known.
  const agent = facts.agents?.find((a) => a.id === record.agentId)?.name ?? record.agentName ?? record.agentId;
  const named = facts.agents?.length ? facts.agents.map((a) => `“${a.name}” (${a.id})`).join(' and ') : agent;
  const parts = [starts > 0 ? `starts ${plural(starts, 'job')} of ${named}` : 'starts no job', follows > 0 ? `follows ${plural(follows, 'job')} not finished` : ''].filter(Boolean);
  const resume = hasStarted(record);
  const message = `${resume ? 'Resume' : 'Start comparison'} "${record.title}"? This ${parts.join(' and ')}.`;
  const files = filesToSend(record);
  const detail = [
    starts > 0 ? productionText(record, agent) : '',
    starts > 0 && facts.cost ? `Cost: ${facts.cost}.` : '',
    failedTargets(record),
    refusedText(facts.refused ?? []),
    foreign.length ? `Left alone: ${plural(foreign.length, 'job')} of another agent (${list(foreign, 3)}): not followed, never cancelled from here.` : '',
    files.length ? `Files sent to the service: ${list(files, 10)}.` : 'No file is sent.',
  ].filter(Boolean);
  const button = starts > 0 ? `Start ${starts} Job${starts === 1 ? '' : 's'}` : resume ? 'Resume' : 'Start';
  return { message, detail: detail.join('\n\n'), button, starts };
}

// Whether production is touched, in words: jobs of the real agent run (and cost), nothing is changed.
function productionText(record: ComparisonRecord, agent: string): string {
  const real = casesToStart(record);
  const onReal = record.targets.some((t) => real.has(t.id) && (t.kind === 'version' || (t.kind === 'current' && (!t.agentId || t.agentId === record.agentId))));
  const copies = record.targets.some((t) => real.has(t.id) && t.kind === 'current' && t.agentId !== undefined && t.agentId !== record.agentId);
  if (onReal) return `Production: ${agent} itself runs the cases (its jobs show in its Jobs list and cost as usual); no policy or version is changed.`;
  return copies ? 'Production is not touched: the cases run on a trial copy.' : '';
}

function failedTargets(record: ComparisonRecord): string {
  const failed = record.targets.filter((t) => t.failed !== undefined && t.kind !== 'baseline');
  return failed.map((t) => `Left out: "${t.label}" runs nothing: ${t.failed}`).join('\n');
}

function refusedText(refused: readonly RefusedInput[]): string {
  if (!refused.length) return '';
  const shown = refused.slice(0, 5).map((r) => `${r.file} (${r.why})`);
  const more = refused.length > 5 ? ` and ${refused.length - 5} more` : '';
  const cases = new Set(refused.map((r) => r.caseIndex)).size;
  return `Left out, never sent: ${shown.join(', ')}${more}. ${plural(cases, 'case')} with such a file ${cases === 1 ? 'fails' : 'fail'}; the other cases run.`;
}

function list(items: readonly string[], max: number): string {
  return `${items.slice(0, max).join(', ')}${items.length > max ? ` and ${items.length - max} more` : ''}`;
}
