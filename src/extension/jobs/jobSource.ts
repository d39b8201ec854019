import type { JobStatusSource } from '../../core/jobWatch';
import type { Connection } from '../connection/connection';

/** The job watcher's view of the service: the bulk statuses endpoint and the single-job status, through the current client. */
export function jobStatusSource(connection: Connection): JobStatusSource {
  return {
    statuses: (ids, signal) => connection.requireClient().jobs.statuses(ids, { signal }),
    status: (id, signal) => connection.requireClient().jobs.status(id, { signal }),
  };
}
