import type { StatusLook } from './model';

const LOOKS: Record<number, StatusLook> = {
  0: { icon: 'loading', spin: true, tone: 'pending' },
  1: { icon: 'loading', spin: true, tone: 'running' },
  2: { icon: 'loading', spin: true, tone: 'retry' },
  3: { icon: 'pass-filled', spin: false, tone: 'success' },
  4: { icon: 'error', spin: false, tone: 'failure' },
  5: { icon: 'circle-slash', spin: false, tone: 'cancelled' },
  6: { icon: 'database', spin: false, tone: 'cached' },
};

/** The icon and tone of a job status, the same in the tree, the status bar and the job view. */
export function statusLook(code: number | undefined): StatusLook {
  return (code === undefined ? undefined : LOOKS[code]) ?? { icon: 'question', spin: false, tone: 'unknown' };
}
