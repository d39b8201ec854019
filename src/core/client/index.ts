/** The service client: everything public. */
export { ServiceClient } from './client';
export type { CallOptions, ClientOptions, Page, RequestEvent, RetryOptions, WriteOptions } from './types';
export { ServiceError, isServiceError, type ServiceErrorKind } from './errors';
export { pageNumberOf } from './pagination';

export { AgentsApi } from './resources/agents';
export type {
  CreateAgentBody,
  CreateAgentVersionBody,
  GetAgentVersionParams,
  InputDefinitionInput,
  ListAgentsParams,
  ListModelsParams,
  RunAgentBody,
  UpdateAgentBody,
} from './resources/agents';
export { JobsApi, RESULTS_CHUNK_SIZE, isResultUnavailable, type ListJobsParams } from './resources/jobs';
export { PoliciesApi, dependentAgentsOf } from './resources/policies';
export type { CreatePolicyBody, CreatePolicyVersionBody, ListPoliciesParams, ListPolicyVersionsParams, UpdatePolicyBody } from './resources/policies';
export { DatasetsApi } from './resources/datasets';
export type { DeleteFileOptions, ListDatasetFilesParams, ListDatasetsParams, UploadFileParams } from './resources/datasets';
export { DatabaseApi } from './resources/database';
export { TablesApi, type UploadTableParams } from './resources/tables';

export { CreatorSchema, TagSchema, TagsSchema, tagNames, type Creator, type Tag, type Tags } from './schemas/common';
export {
  AgentVersionListSchema,
  AgentVersionSchema,
  BaseAgentPageSchema,
  BaseAgentSchema,
  InputDefinitionSchema,
  type AgentVersion,
  type BaseAgent,
  type InputDefinition,
} from './schemas/agents';
export {
  AgentJobPageSchema,
  AgentJobSchema,
  EvaluationSchema,
  FeedbackReviewSchema,
  JobInputSchema,
  JobStatusRecordSchema,
  JobStatusSummaryListSchema,
  JobStatusSummarySchema,
  StatusEventSchema,
  type AgentJob,
  type Evaluation,
  type FeedbackReview,
  type JobInput,
  type JobStatusRecord,
  type JobStatusSummary,
  type StatusEvent,
} from './schemas/jobs';
export {
  DependentAgentSchema,
  PolicyPageSchema,
  PolicySchema,
  PolicyVersionPageSchema,
  PolicyVersionSchema,
  type DependentAgent,
  type Policy,
  type PolicyVersion,
} from './schemas/policies';
export { DatasetFilePageSchema, DatasetFileSchema, DatasetPageSchema, DatasetSchema, type Dataset, type DatasetFile } from './schemas/datasets';
export {
  QueryResultSchema,
  QueryResultSetSchema,
  QuerySummarySchema,
  SubmittedQuerySchema,
  type QueryResult,
  type QueryResultSet,
  type QuerySummary,
  type SubmittedQuery,
} from './schemas/database';

export { UsersApi } from './resources/users';
export { isFileInput, hasFileInput, type FileInput } from './resources/runBody';
export {
  CancelAllJobsSchema,
  JobOutputListSchema,
  JobOutputSchema,
  JobResultRecordListSchema,
  JobResultRecordSchema,
  JobResultSchema,
  type CancelAllJobs,
  type JobOutput,
  type JobResult,
  type JobResultRecord,
} from './schemas/results';
export {
  CurrentUserSchema,
  EngineTypeListSchema,
  EngineTypeSchema,
  ModelListSchema,
  ModelSchema,
  type CurrentUser,
  type EngineType,
  type EngineTypeList,
  type Model,
  type ModelList,
} from './schemas/discovery';
export {
  TableColumnSchema,
  TableDescriptionSchema,
  TableListSchema,
  TablePreviewSchema,
  TableQueryResultSchema,
  TableQuerySubmittedSchema,
  TableSchema,
  TableUploadedSchema,
  type Table,
  type TableColumn,
  type TableDescription,
  type TableList,
  type TablePreview,
  type TableQueryResult,
  type TableQuerySubmitted,
  type TableUploaded,
} from './schemas/tables';
