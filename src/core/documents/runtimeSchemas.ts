/**
 * The run-file JSON schema is built from the input definitions of the agents run files name and served
 * by the extension at `RUN_SCHEMA_URI` (the static schema file the manifest names points at it with
 * `$ref`, because a manifest's schema URL must be a file of the extension). No imports: the activation
 * bundle reads this constant.
 */

/** The run-file JSON schema, generated from the input definitions of the agents run files name. */
export const RUN_SCHEMA_URI = 'agent-workbench-schema:/agent-run.schema.json';
