import { randomInt } from 'node:crypto';
import { SeededRandom } from '../seed/random';
import { type FaultRule, type LatencyFault, readFaultRules } from './rules';

/** A rule and what it has done so far, as `GET /__admin/faults` and `RunningSandbox.faultReport()` show it. */
export interface FaultReport {
  rule: FaultRule;
  /** Requests the rule was applied to. */
  hits: number;
  /** What is left of `count`; null for a rule without one. */
  remaining: number | null;
}

/** A fault picked for one request; `release()` gives it back when it turned out not to apply. */
export interface PickedFault {
  rule: Exclude<FaultRule, LatencyFault>;
  release(): void;
  readonly released: boolean;
}

/** What the rules say about one request: the total delay, and at most one other fault. */
export interface FaultPlan {
  delayMs: number;
  fault?: PickedFault;
}

/** One rule with its compiled path pattern, its random source and its counters. */
class ActiveRule {
  readonly pattern: (path: string) => boolean;
  private readonly random: SeededRandom;
  hits = 0;
  remaining: number | null;

  constructor(readonly rule: FaultRule) {
    this.pattern = compilePath(rule.path);
    this.random = new SeededRandom(rule.seed ?? randomInt(2 ** 32 - 1));
    this.remaining = rule.count ?? null;
  }

  /** True when the rule applies to this request; the `count` it uses is taken at once (two requests at a time cannot both take the last one). */
  take(method: string, path: string, token?: string): boolean {
    if (this.remaining === 0) return false;
    if (this.rule.token !== undefined && this.rule.token !== token) return false;
    if (this.rule.method !== undefined && this.rule.method.toUpperCase() !== method.toUpperCase()) return false;
    if (!this.pattern(path)) return false;
    if (this.rule.rate !== undefined && this.rule.rate < 1 && !this.random.chance(this.rule.rate)) return false;
    if (this.remaining !== null) this.remaining--;
    this.hits++;
    return true;
  }

  giveBack(): void {
    this.hits--;
    if (this.remaining !== null) this.remaining++;
  }
}

/** The rules in force, replaced or cleared at run time; every request asks it for a {@link FaultPlan}. */
export class FaultBook {
  private rules: ActiveRule[] = [];

  constructor(rules: readonly FaultRule[] = []) {
    this.set(rules);
  }

  /** Replaces every rule (checked first: a bad rule throws and leaves the old ones in force). */
  set(rules: readonly FaultRule[]): void {
    this.rules = readFaultRules(rules).map((rule) => new ActiveRule(rule));
  }

  /** Adds rules after the ones in force. */
  add(rules: readonly FaultRule[]): void {
    this.rules = [...this.rules, ...readFaultRules(rules).map((rule) => new ActiveRule(rule))];
  }

  clear(): void {
    this.rules = [];
  }

  get active(): boolean {
    return this.rules.length > 0;
  }

  /** Each rule with its counters. */
  report(): FaultReport[] {
    return this.rules.map((r) => ({ rule: r.rule, hits: r.hits, remaining: r.remaining }));
  }

  /** The delay and the fault for a request; undefined when no rule matches. */
  plan(method: string, path: string, token?: string): FaultPlan | undefined {
    let delayMs = 0;
    let fault: PickedFault | undefined;
    let matched = false;
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.kind !== 'latency' && fault) continue;
      if (!active.take(method, path, token)) continue;
      matched = true;
      if (rule.kind === 'latency') delayMs += rule.ms;
      else fault = picked(rule, active);
    }
    return matched ? { delayMs, fault } : undefined;
  }
}

function picked(rule: Exclude<FaultRule, LatencyFault>, active: ActiveRule): PickedFault {
  let released = false;
  return {
    rule,
    release: () => {
      if (released) return;
      released = true;
      active.giveBack();
    },
    get released() {
      return released;
    },
  };
}

/** Compiles a rule's path: a regular expression when it starts with `^`, else a glob (see `FaultScope.path`). */
export function compilePath(pattern: string): (path: string) => boolean {
  if (pattern.startsWith('^')) {
    const regex = new RegExp(pattern);
    return (path) => regex.test(path);
  }
  const source = withSlash(pattern)
    .split(/(\*\*\/?|\*)/)
    .map((part) => (part === '*' ? '[^/]*' : part.startsWith('**') ? '(?:.*/)?' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const regex = new RegExp(`^${source}$`);
  return (path) => regex.test(withSlash(path));
}

function withSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}
