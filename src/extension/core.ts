/**
 * The heavy half of the extension (HTTP client, schemas), bundled apart as `dist/core.js` and loaded
 * on first use, so that activation evaluates only the small wiring bundle.
 */
export { ServiceClient, isServiceError, ServiceError, tagNames, dependentAgentsOf } from '../core/client';
export { checkJson, locateFieldErrors } from '../core/documents/jsonProblems';
export { AgentVersionDraftSchema, draftFromVersion } from '../core/documents/agentVersionDraft';
export { PolicyContentSchema } from '../core/documents/policyContent';
export { parseRunFile, checkRun, filePathsOf, type RunPlan, type RunProblem, type FileKind } from '../core/runs/runCheck';
export { runErrorProblems } from '../core/runs/runErrors';
export { runFileText } from '../core/runs/runTemplate';
export { runFileJsonSchema, inputKind, type RunTarget } from '../core/runs/runFileSchema';
export { NewAgentDraftSchema, createAgentBody, newAgentDraft } from '../core/documents/newAgentDraft';
export { parseTestSet, testCaseLine, testSetFormat, caseLabel, type TestCase, type ParsedTestSet } from '../core/comparison/testSet';
export { caseFromJob, caseNamesFromJobs } from '../core/comparison/casesFromJobs';
export { newComparison, parseComparison, serializeComparison, isComplete, unfinishedJobIds, dropPending, applyToRuns, casesToStart, failTarget, dropTarget, type ComparisonRecord, type ComparisonTarget } from '../core/comparison/comparisonRecord';
export { startMissing, applyStatuses, readResults, cancelUnfinished, jobsToCancel, cancelJobs, isRefusal, BatchOutcomeUnknown, type ComparisonService } from '../core/comparison/comparisonRunner';
export { targetInputProblems, confineInputs, filesToSend } from '../core/comparison/comparisonInputs';
export { ComparisonFileProblem } from '../core/comparison/comparisonSchema';
export { comparisonView } from '../core/comparison/comparisonView';
export { nextComparisonMessage } from '../core/comparison/viewDelta';
export { progressView, workLeft, type SessionPhase } from '../core/comparison/comparisonProgress';
export { comparisonCsv, comparisonJson, comparisonMarkdown } from '../core/comparison/comparisonExport';
export { checkTestSet, testSetAgentId, testSetHeader } from '../core/comparison/testSetCheck';
