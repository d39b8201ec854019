/** A client of the admin endpoint, for tests that run the sandbox as another process (`dist/sandbox.js`). */
import { ADMIN_FAULTS_PATH, ADMIN_HEADER } from './admin';
import type { FaultReport } from './faultBook';
import type { FaultRule } from './rules';

/** Switches the faults of a sandbox at `baseUrl`, given the admin secret of its ready line. */
export class FaultAdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly adminSecret: string,
  ) {}

  /** Replaces the rules in force; answers them with their counters. */
  set(rules: readonly FaultRule[]): Promise<FaultReport[]> {
    return this.call('PUT', rules);
  }

  /** Adds rules after the ones in force. */
  add(rules: readonly FaultRule[]): Promise<FaultReport[]> {
    return this.call('POST', rules);
  }

  /** Ends the fault mode: no rules. */
  async clear(): Promise<void> {
    await this.call('DELETE');
  }

  /** The rules in force, with how many requests each one hit. */
  report(): Promise<FaultReport[]> {
    return this.call('GET');
  }

  private async call(method: string, rules?: readonly FaultRule[]): Promise<FaultReport[]> {
    const headers: Record<string, string> = { [ADMIN_HEADER]: this.adminSecret };
    if (rules) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(ADMIN_FAULTS_PATH, this.baseUrl), { method, headers, body: rules ? JSON.stringify(rules) : undefined });
    const text = await response.text();
    if (!response.ok) throw new Error(`The sandbox's fault admin answered ${response.status}: ${text.slice(0, 300)}`);
    return text === '' ? [] : (JSON.parse(text) as { faults: FaultReport[] }).faults;
  }
}
