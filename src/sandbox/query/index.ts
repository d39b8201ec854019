// The sandbox's database query engine: read-only SQL over a demo warehouse, in a worker thread.

export { createQueryEngine } from './engine';
export type { QueryEngine, QueryEngineOptions, QueryOutcome, QueryResult, QueryScope, QuerySummary, RunOptions, ScopeTable } from './types';
