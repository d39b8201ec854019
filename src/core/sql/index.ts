/** SQL editing logic (tokenizer, scopes, completion, hover, problems), bundled apart as `dist/sql.js` and loaded on first use. */
export { SqlCatalog, baseTypeName, typeKind } from './sqlCatalog';
export { sqlCompletions } from './sqlCompletion';
export { sqlHover, unknownTables } from './sqlInsight';
