/** Job status codes of the service (interface section 3) and the lifecycle rules we rely on. */
export const JobStatus = {
  PENDING: 0,
  STARTED: 1,
  RETRY: 2,
  SUCCESS: 3,
  FAILURE: 4,
  CANCELLED: 5,
  CACHED: 6,
} as const;

export type JobStatusCode = (typeof JobStatus)[keyof typeof JobStatus];
export type JobStatusName = keyof typeof JobStatus;

const NAMES: readonly JobStatusName[] = ['PENDING', 'STARTED', 'RETRY', 'SUCCESS', 'FAILURE', 'CANCELLED', 'CACHED'];

/** The status name for a code; codes the interface does not list come back as `UNKNOWN(n)`. */
export function jobStatusName(code: number): string {
  return NAMES[code] ?? `UNKNOWN(${code})`;
}

/** The code for a name (case-insensitive), or undefined. */
export function jobStatusFromName(name: string): JobStatusCode | undefined {
  const i = NAMES.indexOf(name.toUpperCase() as JobStatusName);
  return i < 0 ? undefined : (i as JobStatusCode);
}

/** SUCCESS, FAILURE, CANCELLED and CACHED are final: nothing changes after them, so nobody polls them. */
export function isFinalStatus(code: number): boolean {
  return code === JobStatus.SUCCESS || code === JobStatus.FAILURE || code === JobStatus.CANCELLED || code === JobStatus.CACHED;
}

/** PENDING, STARTED and RETRY: the job is still going. */
export function isActiveStatus(code: number): boolean {
  return code === JobStatus.PENDING || code === JobStatus.STARTED || code === JobStatus.RETRY;
}

export const ALL_JOB_STATUS_CODES: readonly JobStatusCode[] = [0, 1, 2, 3, 4, 5, 6];
