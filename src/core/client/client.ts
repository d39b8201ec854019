/** The typed client of the service: one gateway, one thin module per resource. */
import { Gateway } from './gateway';
import { AgentsApi } from './resources/agents';
import { DatabaseApi } from './resources/database';
import { DatasetsApi } from './resources/datasets';
import { JobsApi } from './resources/jobs';
import { PoliciesApi } from './resources/policies';
import { UsersApi } from './resources/users';
import { TablesApi } from './resources/tables';
import type { ClientOptions } from './types';
import { WriteGate } from '../writeGate/writeGate';

/** A connection to one service, for one organization and token. */
export class ServiceClient {
  readonly agents: AgentsApi;
  readonly jobs: JobsApi;
  readonly policies: PoliciesApi;
  readonly datasets: DatasetsApi;
  readonly database: DatabaseApi;
  readonly users: UsersApi;
  readonly tables: TablesApi;
  /** The base URL in canonical form (no trailing slash). */
  readonly baseUrl: string;
  readonly organizationId: string | undefined;
  /** What every write must pass, when the client was made with `writeGate` (the product's clients always are). */
  readonly gate: WriteGate | undefined;
  private readonly gateway: Gateway;

  constructor(options: ClientOptions) {
    this.gateway = new Gateway(options);
    this.baseUrl = this.gateway.baseUrl;
    this.organizationId = this.gateway.organizationId;
    this.agents = new AgentsApi(this.gateway);
    this.jobs = new JobsApi(this.gateway);
    this.policies = new PoliciesApi(this.gateway);
    this.datasets = new DatasetsApi(this.gateway);
    this.database = new DatabaseApi(this.gateway);
    this.users = new UsersApi(this.gateway);
    this.tables = new TablesApi(this.gateway);
    if (options.writeGate) {
      const reader = {
        agent: (id: string, signal?: AbortSignal) => this.agents.get(id, { signal }),
        policy: (id: string, signal?: AbortSignal) => this.policies.get(id, { signal }),
        currentUser: (signal?: AbortSignal) => this.users.current({ signal }),
      };
      this.gate = new WriteGate(reader, options.writeGate);
      this.gateway.guardWrites(this.gate);
    } else {
      this.gate = undefined;
    }
  }

  /** Fails queued calls and closes the client's connections (an injected dispatcher is left open). */
  close(): Promise<void> {
    return this.gateway.close();
  }
}
