/**
 * How many jobs the tools may start: a budget per MCP session (and one per VS Code window), counting the
 * jobs started in a sliding minute and in the whole session. A limit per call alone is no limit: the same
 * call repeated, or several sent at once, would multiply it.
 */
import { ToolRefusal } from './toolTypes';

/** The limits a host sets, and how a user raises them (said in a refusal). */
export interface JobLimits {
  /** The most jobs started in any one minute (a single call asking for more is refused too). */
  perMinute: number;
  /** The most jobs started in the session (an MCP session; a VS Code window). */
  perSession: number;
  /** Where each limit is raised: "--max-jobs", "the setting agentWorkbench.tools.maxJobs". */
  raise: { perMinute: string; perSession: string };
}

const MINUTE_MS = 60_000;

/** The jobs one session started, against its limits (asked for at each check: a setting may change). */
export class JobBudget {
  private recent: { at: number; jobs: number }[] = [];
  private total = 0;

  constructor(
    private readonly limits: () => JobLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Why `jobs` more would go over a limit, as the end of a sentence ("over the limit of …"); undefined when they fit. */
  problem(jobs: number): string | undefined {
    if (jobs <= 0) return undefined;
    const limits = this.limits();
    const lastMinute = this.lastMinute();
    if (lastMinute + jobs > limits.perMinute) {
      const already = lastMinute ? ` with the ${lastMinute} started in the last minute` : '';
      return `over the limit of ${limits.perMinute} jobs a minute${already} (raise it with ${limits.raise.perMinute}, or wait a minute)`;
    }
    if (this.total + jobs > limits.perSession) {
      return `over the limit of ${limits.perSession} jobs a session with the ${this.total} started in this one (raise it with ${limits.raise.perSession}, or start a new session)`;
    }
    return undefined;
  }

  /** Counts `jobs` as started, or throws a refusal saying the limit when they do not fit; `what` is the plan's sentence. */
  take(jobs: number, what: string): void {
    const problem = this.problem(jobs);
    if (problem) throw budgetRefusal(what, jobs, problem);
    if (jobs <= 0) return;
    this.recent.push({ at: this.now(), jobs });
    this.total += jobs;
  }

  private lastMinute(): number {
    const since = this.now() - MINUTE_MS;
    this.recent = this.recent.filter((r) => r.at > since);
    return this.recent.reduce((n, r) => n + r.jobs, 0);
  }
}

/** "Refused: <plan> That is over the limit of …. Nothing was started." */
export function budgetRefusal(what: string, jobs: number, problem: string): ToolRefusal {
  return new ToolRefusal(`Refused: ${what} That is ${problem}. Nothing was started.`, { jobs, refused: problem });
}
