import * as vscode from 'vscode';
import type { TestPrompts } from '../testing/testPrompts';

/** A test set offered for a policy's rule coverage. */
export interface TestSetChoice {
  label: string;
  description: string;
  detail: string;
  uri: vscode.Uri;
  /** Its comparisons (or its header) name an agent that applies the policy. */
  ours: boolean;
}

/** A past job offered as a new case. */
export interface JobChoice {
  label: string;
  description: string;
  detail: string;
  jobId: string;
}

/** A rule offered when several could be meant. */
export interface RuleChoice {
  label: string;
  description: string;
  number: string;
}

/** The question before a trial whose changed rules no case reaches: start anyway, take the next step, or neither. */
export interface UncoveredTrialQuestion {
  message: string;
  detail: string;
  button: string;
  alternative: string;
}

/** The questions rule coverage asks (a test build lets tests answer any of them: see testPrompts). */
export interface CoveragePrompts {
  testSet(choices: readonly TestSetChoice[], title: string): Thenable<vscode.Uri | undefined>;
  jobs(choices: readonly JobChoice[], title: string): Thenable<string[] | undefined>;
  rule(choices: readonly RuleChoice[], title: string): Thenable<string | undefined>;
  uncoveredTrial(question: UncoveredTrialQuestion): Thenable<'start' | 'alternative' | undefined>;
}

const userPrompts: CoveragePrompts = {
  testSet: async (choices, title) => {
    const ours = choices.filter((c) => c.ours);
    const others = choices.filter((c) => !c.ours);
    type Item = vscode.QuickPickItem & { uri?: vscode.Uri };
    const items: Item[] = [
      ...(ours.length ? [{ label: 'test sets run on an agent that applies this policy', kind: vscode.QuickPickItemKind.Separator }, ...ours] : []),
      ...(others.length ? [{ label: 'all other test sets', kind: vscode.QuickPickItemKind.Separator }, ...others] : []),
    ];
    return (await vscode.window.showQuickPick(items, { title, matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true }))?.uri;
  },
  jobs: async (choices, title) => (await vscode.window.showQuickPick([...choices], { title, canPickMany: true, matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true }))?.map((c) => c.jobId),
  rule: async (choices, title) => (await vscode.window.showQuickPick([...choices], { title, matchOnDescription: true }))?.number,
  uncoveredTrial: async (q) => {
    const answer = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, q.alternative, q.button);
    return answer === q.button ? 'start' : answer === q.alternative ? 'alternative' : undefined;
  },
};

/** The prompts to ask: the user's, or a test's answer where it gives one. */
export function coveragePrompts(answers: TestPrompts | undefined): CoveragePrompts {
  const given = __TEST_HOOKS__ ? answers?.coverage : undefined;
  return { ...userPrompts, ...given };
}
