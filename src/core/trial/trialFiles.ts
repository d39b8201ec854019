/**
 * Where a trial lives in the workspace: `<base>.trial.json` (the trial) beside its comparison
 * `<base>.trial.comparison.json`, next to the test set it runs; and the sentences that ask before a
 * trial starts or ends.
 */
import { estimateText, type CostEstimate } from '../comparison/costEstimate';
import { editReachLines, noChangedRuleReached, unreachedEdits, unreachedEditSentence, type EditReach } from '../coverage/ruleEdits';

const TRIAL_COMPARISON = /\.trial\.comparison\.json$/i;

/** The base of the files of a trial of a test set: the test set's name without `.testset.jsonl` / `.csv`. */
export function testSetBase(testSetName: string): string {
  return testSetName.replace(/\.(testset\.)?(jsonl|csv)$/i, '');
}

/** The trial file and the comparison file of a trial whose files start with `base`. */
export function trialFileNames(base: string): { trial: string; comparison: string } {
  return { trial: `${base}.trial.json`, comparison: `${base}.trial.comparison.json` };
}

/** The trial file beside a trial's comparison file, or undefined when the comparison is not a trial's. */
export function trialFileOfComparison(comparisonName: string): string | undefined {
  return TRIAL_COMPARISON.test(comparisonName) ? comparisonName.replace(TRIAL_COMPARISON, '.trial.json') : undefined;
}

/** The comparison file beside a trial file. */
export function comparisonOfTrialFile(trialName: string): string {
  return trialName.replace(/\.trial\.json$/i, '.trial.comparison.json');
}

/**
 * The modal question before a trial starts: what it makes, what it runs and costs, that production is not
 * touched, and with `rules` the rules the edit changes and how many cases reach each. When no case reaches
 * any of them, it says so first, its button starts anyway, and `alternative` is the next step to offer.
 */
export function trialStartQuestion(o: { policyName: string; agentName: string; testSet: string; cases: number; estimate: CostEstimate; baseline: 'before' | 'now'; rules?: EditReach }): { message: string; detail: string; button: string; alternative?: string } {
  const n = o.estimate.jobs;
  const runs = o.baseline === 'before' ? `the trial runs its ${o.cases} case${o.cases === 1 ? '' : 's'} and compares them with the results before (read, not run)` : `the trial and the current version of ${o.agentName} each run its ${o.cases} case${o.cases === 1 ? '' : 's'}`;
  const question = `Try this edit of “${o.policyName}” on ${o.testSet}? It runs on copies: production is not touched until you publish.`;
  const detail = [
    `A trial policy with your edit and a trial copy of ${o.agentName} that applies it are created (both marked “trial”, removed when you publish or discard).`,
    `Then ${runs}: ${estimateText(o.estimate)}.`,
    'No file is sent.',
    ...(o.rules ? ['', ...editReachLines(o.rules)] : []),
  ];
  const button = `Start ${n} Job${n === 1 ? '' : 's'}`;
  if (!o.rules || !noChangedRuleReached(o.rules)) return { message: question, detail: detail.join('\n'), button };
  const unreached = unreachedEdits(o.rules).length;
  return { message: unreachedEditSentence(o.rules), detail: [question, '', ...detail].join('\n'), button: `${button} Anyway`, alternative: unreached === 1 ? 'Find Cases for This Rule' : 'Find Cases for a Rule…' };
}

/** The modal question before a trial of an agent version draft starts: the copy it makes, what it runs and costs. */
export function draftTrialQuestion(o: { agentName: string; versionName?: string; testSet: string; cases: number; estimate: CostEstimate; baseline: 'before' | 'now' }): { message: string; detail: string; button: string } {
  const n = o.estimate.jobs;
  const cases = `${o.cases} case${o.cases === 1 ? '' : 's'}`;
  const runs = o.baseline === 'before' ? `the draft runs the ${cases} and is compared with the results before (read, not run)` : `the draft and the current version of ${o.agentName} each run the ${cases}`;
  return {
    message: `Try this draft${o.versionName ? ` (“${o.versionName}”)` : ''} of “${o.agentName}” on ${o.testSet}? It runs on a copy: the agent keeps its current version until you publish.`,
    detail: [`A trial copy of ${o.agentName} whose version is the draft is created (marked “trial”, removed when you publish or discard).`, `Then ${runs}: ${estimateText(o.estimate)}.`, 'No file is sent.'].join('\n'),
    button: `Start ${n} Job${n === 1 ? '' : 's'}`,
  };
}
