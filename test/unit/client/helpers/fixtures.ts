/** Builders of service answers shaped as the live service sends them. */

let serial = 0;
const uuid = (): string => `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`;

export function baseAgent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: uuid(),
    created_at: '2025-03-01T10:00:00Z',
    name: 'Support triage',
    disable_cache: false,
    cache_failed_jobs: false,
    organization_id: '11111111-2222-3333-4444-555555555555',
    engine_class_id: 'llm-classifier',
    current_version_id: uuid(),
    job_count: 3,
    most_recent_job: '2025-03-02T10:00:00Z',
    engine_name: 'LLM classifier',
    tags: [],
    creator: { id: 7, email: 'ada@example.com' },
    ...overrides,
  };
}

export function agentVersion(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: uuid(),
    name: 'Support triage',
    version_name: 'unnamed version',
    created_at: '2025-03-01T10:00:00Z',
    engine_class_id: 'llm-classifier',
    engine_name: 'LLM classifier',
    input_definitions: [{ key: 'text', data_type: 'text/plain', description: 'Ticket text' }],
    engine_config: { prompt: 'Classify' },
    organization_id: '11111111-2222-3333-4444-555555555555',
    readonly: false,
    base_agent: baseAgent(),
    ...overrides,
  };
}

export function job(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: uuid(),
    agent_version_name: 'v1',
    status_events: [{ timestamp: '2025-03-01T10:00:00Z', status_code: 0, error_message: '', error_details: {}, count: 1 }],
    status_code: 3,
    created_at: '2025-03-01T10:00:00Z',
    last_updated_at: '2025-03-01T10:00:05Z',
    evaluation: null,
    feedback_review: null,
    job_inputs: [{ key: 'text', description: '', data_type: 'text/plain', value: 'hello', file_name: '' }],
    metadata: {},
    ...overrides,
  };
}

export function policy(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: uuid(),
    name: 'Refunds',
    description: '',
    organization_id: '11111111-2222-3333-4444-555555555555',
    current_version_id: uuid(),
    created_at: '2025-03-01T10:00:00Z',
    updated_at: '2025-03-01T10:00:00Z',
    ...overrides,
  };
}

export function dataset(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: uuid(), name: 'Tickets', creator: null, created_at: '2025-03-01T10:00:00Z', organization: '11111111-2222-3333-4444-555555555555', ...overrides };
}

export function datasetFile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: uuid(), dataset: dataset(), name: 'a.csv', size: 10, creator: { id: 7, email: 'ada@example.com', is_active: true }, created_at: '2025-03-01T10:00:00Z', ...overrides };
}

/** A pagination envelope around `results`. */
export function envelope(results: unknown[], count = results.length, next: string | null = null, previous: string | null = null): Record<string, unknown> {
  return { count, next, previous, results };
}
