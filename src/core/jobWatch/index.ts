/** The job watcher behind the status bar's "watch job": polling, summaries, persistence. */
export { JobWatcher } from './jobWatcher';
export { MAX_MISSES, NOT_FOUND_MESSAGE } from './watchRecords';
export { MAX_RESTORED_JOBS, parseWatchState, serializeJobs, type SerializedJob, type SerializedWatchState } from './persistence';
export { MIN_INTERVAL_MS } from './pollSchedule';
export { isUnsupported, MAX_BULK_IDS, PER_JOB_CONCURRENCY } from './statusFetcher';
export { elapsedText, isPolled, jobFullTitle, jobTitle, statusGroup, statusWord, summarize, withRecordTimes, type StatusGroup } from './summary';
export * from './types';
