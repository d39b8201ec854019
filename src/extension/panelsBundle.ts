// dist/panels.js: the webview panels (their pages, and what only drawing them needs), loaded when the
// first one opens. Like dist/commands.js, it takes the modules it shares with the activation bundle from there.
export { ComparisonPanel } from './comparison/comparisonPanel';
export { ComparisonSession } from './comparison/comparisonSession';
export { JobPanel } from './jobs/jobView/jobPanel';
export { ResultPanel } from './queries/resultPanel';
