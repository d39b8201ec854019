/** Names of run files; no dependencies, so the activation bundle can use it. */

/** Run files are JSON documents whose name ends with this (`support-call-qa.agentrun.json`). */
export const RUN_FILE_SUFFIX = '.agentrun.json';

/** True for a path or URI path naming a run file. */
export function isRunFilePath(path: string): boolean {
  return path.toLowerCase().endsWith(RUN_FILE_SUFFIX);
}

/** An agent's (or a policy's) name as the start of a file name: lower case with dashes (`support-call-qa`); run files, test sets and policy files use it. `fallback` when nothing of the name is left. */
export function agentFileSlug(agentName: string, fallback = 'agent'): string {
  return agentName.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || fallback;
}

/** A file name for a new run file: the agent's name in lower case with dashes (`support-call-qa.agentrun.json`). */
export function runFileName(agentName: string, attempt = 1): string {
  return `${agentFileSlug(agentName)}${attempt > 1 ? `-${attempt}` : ''}${RUN_FILE_SUFFIX}`;
}
