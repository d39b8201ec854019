/** Database queries: submit (our decision) and read results (interface 4.7). */
import { submitQueryPath } from '../../serviceDecisions';
import type { Gateway } from '../gateway';
import { seg } from '../query';
import { QueryResultSetSchema, SubmittedQuerySchema, type QueryResultSet, type SubmittedQuery } from '../schemas/database';
import type { CallOptions } from '../types';

/** Read-only SQL queries over the service's data. */
export class DatabaseApi {
  constructor(private readonly gateway: Gateway) {}

  /** Submits one read-only SELECT; poll {@link getResult} with the answer's id. `unsupported` when the server has no query endpoint. */
  submitQuery(sql: string, opts?: CallOptions): Promise<SubmittedQuery> {
    const call = { operation: 'submitQuery', method: 'POST', path: submitQueryPath, json: { query: sql }, schema: SubmittedQuerySchema } as const;
    return this.gateway.send({ ...call, feature: 'database queries' }, opts?.signal);
  }

  /** The state and, once done, the rows of a submitted query. */
  getResult(queryId: string, opts?: CallOptions): Promise<QueryResultSet> {
    const path = `/v1/database/query/${seg(queryId)}/result/`;
    return this.gateway.send({ operation: 'getQueryResult', method: 'GET', path, schema: QueryResultSetSchema }, opts?.signal);
  }
}
