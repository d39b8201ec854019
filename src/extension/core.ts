/**
 * The heavy half of the extension (HTTP client, schemas), bundled apart as `dist/core.js` and loaded
 * on first use, so that activation evaluates only the small wiring bundle.
 */
export { ServiceClient, isServiceError, ServiceError, tagNames, dependentAgentsOf } from '../core/client';
export { checkJson, locateFieldErrors } from '../core/documents/jsonProblems';
export { draftChoiceAt } from '../core/documents/draftChoice';
export { AgentVersionDraftSchema, draftFromVersion, sameRun } from '../core/documents/agentVersionDraft';
export { PolicyContentSchema } from '../core/documents/policyContent';
export { parseRunFile, checkRun, filePathsOf, type RunPlan, type RunProblem, type FileKind } from '../core/runs/runCheck';
export { runErrorProblems } from '../core/runs/runErrors';
export { startJobs } from '../core/runs/startJobs';
export { runFileText } from '../core/runs/runTemplate';
export { runFileJsonSchema, inputKind, type RunTarget } from '../core/runs/runFileSchema';
export { NewAgentDraftSchema, createAgentBody, newAgentDraft } from '../core/documents/newAgentDraft';
export { parseTestSet, testCaseLine, testSetFormat, caseLabel, type TestCase, type ParsedTestSet, type Expected } from '../core/comparison/testSet';
export { caseFromJob, caseNamesFromJobs } from '../core/comparison/casesFromJobs';
export { testSetFromJobs, testSetLeftOutNote } from '../core/comparison/testSetFromJobs';
export { newComparison, parseComparison, serializeComparison, isComplete, unfinishedJobIds, dropPending, applyToRuns, casesToStart, failTarget, dropTarget, jobAgents, agentOfTarget, type ComparisonRecord, type ComparisonTarget } from '../core/comparison/comparisonRecord';
export { startMissing, applyStatuses, statusItems, readResults, cancelUnfinished, jobsToCancel, cancelJobs, isRefusal, BatchOutcomeUnknown, type ComparisonService } from '../core/comparison/comparisonRunner';
export { targetInputProblems, confineInputs, filesToSend } from '../core/comparison/comparisonInputs';
export { preflight } from '../core/comparison/preflight';
export { startQuestion } from '../core/comparison/startQuestion';
export { ComparisonFileProblem } from '../core/comparison/comparisonSchema';
export { comparisonView } from '../core/comparison/comparisonView';
export { nextComparisonMessage } from '../core/comparison/viewDelta';
export { progressView, workLeft, type SessionPhase } from '../core/comparison/comparisonProgress';
export { ruleChanges, type RuleChange } from '../core/comparison/ruleChanges';
export { estimatePlan, estimateText, overCeiling, readCostEstimate, type CostEstimate } from '../core/comparison/costEstimate';
export { comparisonCsv, comparisonJson, comparisonMarkdown } from '../core/comparison/comparisonExport';
export { checkTestSet, testSetAgentId, testSetHeader } from '../core/comparison/testSetCheck';
export { agentDispositions, versionDispositions } from '../core/comparison/agentDispositions';
export { expectedFromCell, expectedWith, caseLabelEdit, syncExpectations, policyDispositions, dispositionChoices, testSetFileOf, passDispositions, inputTexts, type DispositionChoice } from '../core/comparison/caseLabelling';
export { writeLabel, expectedText, type LabelResult } from '../core/comparison/testSetLabel';
export { userDisplayName } from '../core/trial/trialMarker';
export { demoTestSetText } from '../sandbox/seed/demoTestSet.mjs';
export { DEMO_LOOP_TRANSCRIPT } from '../sandbox/seed/demoLoop';
export { isDraftTrial, newDraftTrial, newTrial, parseTrial, serializeTrial, trialAgents, trialSubjectName, trialSubjectText, type DraftTrialRecord, type PolicyTrialRecord, type TrialRecord } from '../core/trial/trialRecord';
export { agentsApplying, setUpDraftTrial, setUpTrial, policyIdOf } from '../core/trial/trialSetup';
export { trialComparison, trialPlan, clientComparisonService } from '../core/trial/trialComparison';
export { discardTrial, discardPlanned, completePublish, publishTrial, findLeftovers, TrialConflict, type Leftover, type RemovalOutcome } from '../core/trial/trialEnd';
export { planTrialRemoval, planLeftoverRemoval, removeVerified, describeCopy, describeLeftAlone, type RemovalPlan, type VerifiedCopy, type LeftAlone } from '../core/trial/trialRemoval';
export { parsePolicyFile, policyFileText, type PolicyFile } from '../core/trial/policyFile';
export { testSetBase, trialFileNames, trialFileOfComparison, comparisonOfTrialFile, trialStartQuestion, draftTrialQuestion } from '../core/trial/trialFiles';
export { LocalMcpServer } from '../core/mcp/localServer';
export { TOOLS, callTool, JobBudget, ShownPlans, planTool, parseToolInput, toolNamed, toolErrorText, type AnyTool } from '../core/tools';
export { duplicateAgentAs, DuplicateRenameError } from '../core/agentDuplicate';
export { deleteAgentVersion, renameAgentVersion } from '../core/agentVersionChanges';
export { parseMetadata } from '../core/uploads/uploadMetadata';
