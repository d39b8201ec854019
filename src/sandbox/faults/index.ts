/** The sandbox's fault mode: rules, the admin endpoint, and a client of it. */
export { ADMIN_FAULTS_PATH, ADMIN_HEADER } from './admin';
export { FaultAdminClient } from './adminClient';
export type { FaultReport } from './faultBook';
export { FaultMode, generateAdminSecret, type Served } from './faultMode';
export { isLoopback } from './loopback';
export { type FaultKind, type FaultRule, readFaultRule, readFaultRules } from './rules';
