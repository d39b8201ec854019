import { JobStatus } from '../../core/jobStatus';
import type { InputDefinition } from '../agents/definitions';
import { engineVerdicts } from '../engines';
import type { NewJob } from '../jobs/jobInsert';
import type { JobInput, PlanStep, StoredEvent } from '../jobs/jobStore';
import { FAILURE_MESSAGES, RETRY_MESSAGES, SLOW_STEPS, nextEvent } from '../jobs/lifecycle';
import type { SeededRandom } from './random';
import { documentInput, feedbackText, jobMetadata, ticketText, transcriptText } from './demoText';

/** What a seeded job needs to know about its agent. */
export interface SeedAgent {
  orgId: string;
  agentPk: number;
  engine: string;
  kind: 'transcript' | 'document' | 'ticket';
  versions: { pk: number; name: string; createdMs: number; inputs: InputDefinition[] }[];
  userIds: number[];
  reviewers: string[];
}

const FINAL_MIX: readonly (readonly [number, number])[] = [
  [JobStatus.SUCCESS, 70],
  [JobStatus.CACHED, 10],
  [JobStatus.FAILURE, 9],
  [JobStatus.CANCELLED, 5],
];

function inputsFor(random: SeededRandom, definitions: InputDefinition[]): JobInput[] {
  return definitions.flatMap((d): JobInput[] => {
    const base = { key: d.key, description: d.description, data_type: d.data_type };
    if (d.key === 'transcript') return [{ ...base, value: transcriptText(random), file_name: '' }];
    if (d.key === 'language') return [{ ...base, value: random.weighted([['en', 8], ['es', 1], ['de', 1]]), file_name: '' }];
    if (d.key === 'ticket_text') return [{ ...base, value: ticketText(random), file_name: '' }];
    if (d.key === 'schema') return [{ ...base, value: '{"type":"object","properties":{"order_id":{"type":"string"},"product":{"type":"string"}}}', file_name: '' }];
    const count = d.accepts_multiple_files && random.chance(0.4) ? 2 : 1;
    return Array.from({ length: count }, () => {
      const doc = documentInput(random);
      return { ...base, value: doc.url, file_name: doc.fileName };
    });
  });
}

function durationRange(engine: string): [number, number] {
  if (engine === 'document_classifier') return [1_500, 12_000];
  if (engine === 'structured_extractor') return [2_500, 20_000];
  return [6_000, 48_000];
}

/** Events of a job that has finished with `status`, spread over its duration. */
function finishedEvents(random: SeededRandom, status: number, createdMs: number, durationMs: number): StoredEvent[] {
  const events: StoredEvent[] = [nextEvent(JobStatus.PENDING, createdMs)];
  if (status === JobStatus.CACHED) {
    events.push(nextEvent(JobStatus.CACHED, createdMs + durationMs));
    return events;
  }
  let t = createdMs + random.int(200, 3_000);
  events.push(nextEvent(JobStatus.STARTED, t));
  const retries = status === JobStatus.FAILURE ? random.int(1, 2) : random.chance(0.1) ? 1 : 0;
  for (let i = 0; i < retries; i++) {
    t += random.int(1_000, Math.max(1_500, durationMs / 3));
    events.push(nextEvent(JobStatus.RETRY, t, random.pick(RETRY_MESSAGES)));
    t += random.int(500, 5_000);
    events.push(nextEvent(JobStatus.STARTED, t));
  }
  const end = Math.max(t + 100, createdMs + durationMs);
  events.push(nextEvent(status, end, status === JobStatus.FAILURE ? random.pick(FAILURE_MESSAGES) : undefined));
  return events;
}

function evaluation(random: SeededRandom, verdicts: readonly string[], verdict: string, atMs: number): Record<string, unknown> {
  const at = new Date(atMs).toISOString();
  return {
    created_at: at,
    updated_at: at,
    reference: random.chance(0.7) ? { expected_verdict: random.chance(0.85) ? verdict : random.pick(verdicts) } : null,
    human_score: random.chance(0.5) ? random.int(40, 100) : null,
    grader_score: random.float(35, 100, 1),
    feedback: feedbackText(random),
  };
}

function review(random: SeededRandom, agent: SeedAgent, verdicts: readonly string[], verdict: string, atMs: number): Record<string, unknown> {
  const status = random.weighted([['pending', 4], ['approved', 4], ['rejected', 2]] as const);
  const corrected = status === 'rejected' ? random.pick(verdicts.filter((v) => v !== verdict)) ?? verdict : null;
  return {
    reviewed_by: random.pick(agent.reviewers),
    review_status: status,
    corrected_verdict: corrected,
    review_comment: status === 'pending' ? '' : status === 'approved' ? 'Agree with the verdict.' : `Should be ${corrected}: see the second half of the conversation.`,
    reviewed_at: status === 'pending' ? null : new Date(atMs).toISOString(),
  };
}

/** A finished job (any final status) created at `createdMs` on the version current at that time. */
export function finishedJob(random: SeededRandom, agent: SeedAgent, createdMs: number): NewJob {
  const version = [...agent.versions].reverse().find((v) => v.createdMs <= createdMs) ?? agent.versions[0]!;
  const status = random.weighted(FINAL_MIX);
  const [lo, hi] = durationRange(agent.engine);
  const durationMs = status === JobStatus.CACHED ? random.int(20, 90) : status === JobStatus.CANCELLED ? random.int(500, lo) : random.int(lo, hi);
  const events = finishedEvents(random, status, createdMs, durationMs);
  const endMs = events[events.length - 1]![0];
  const verdicts = engineVerdicts(agent.engine);
  const done = status === JobStatus.SUCCESS || status === JobStatus.CACHED;
  const verdict = done ? random.weighted(verdicts.map((v, i) => [v, i === 0 ? 6 : 2] as const)) : null;
  const evaluated = status === JobStatus.SUCCESS && random.chance(0.35);
  const reviewed = status === JobStatus.SUCCESS && random.chance(0.18);
  const costScale = agent.engine === 'llm_conversation_reviewer' ? 0.06 : 0.015;
  const cost = status === JobStatus.CACHED ? 0 : status === JobStatus.CANCELLED ? null : random.float(costScale / 15, costScale, 4);
  const evaluationObject = evaluated ? evaluation(random, verdicts, verdict!, endMs + random.int(60_000, 86_400_000)) : null;
  return {
    orgId: agent.orgId, agentPk: agent.agentPk, versionPk: version.pk, versionName: version.name, status, createdMs,
    lastUpdatedMs: endMs, cost, durationMs: endMs - createdMs, graderScore: (evaluationObject?.grader_score as number | undefined) ?? null,
    verdict, inputs: inputsFor(random, version.inputs), metadata: jobMetadata(random, agent.kind), evaluation: evaluationObject,
    feedbackReview: reviewed ? review(random, agent, verdicts, verdict!, endMs + random.int(3_600_000, 3 * 86_400_000)) : null,
    events, creatorId: random.pick(agent.userIds), plan: null, nextStepMs: null,
  };
}

/**
 * A job still running when the store is created (PENDING, STARTED or RETRY), with the rest of its
 * path planned, so that it moves on (and finishes) once the sandbox runs.
 */
export function runningJob(random: SeededRandom, agent: SeedAgent, nowMs: number, status: number, stepMs: number): NewJob {
  const version = agent.versions[agent.versions.length - 1]!;
  const createdMs = nowMs - random.int(5_000, 90_000);
  const events: StoredEvent[] = [nextEvent(JobStatus.PENDING, createdMs)];
  let plan: PlanStep[] = [{ s: JobStatus.STARTED }, { s: JobStatus.SUCCESS }];
  if (status !== JobStatus.PENDING) {
    events.push(nextEvent(JobStatus.STARTED, createdMs + 1_200));
    plan = random.chance(0.3) ? [{ s: JobStatus.RETRY, e: random.pick(RETRY_MESSAGES) }, { s: JobStatus.STARTED }, { s: JobStatus.SUCCESS }] : [{ s: JobStatus.SUCCESS }];
  }
  if (status === JobStatus.RETRY) {
    events.push(nextEvent(JobStatus.RETRY, createdMs + 4_000, random.pick(RETRY_MESSAGES)));
    plan = [{ s: JobStatus.STARTED }, random.chance(0.7) ? { s: JobStatus.SUCCESS } : { s: JobStatus.FAILURE, e: random.pick(FAILURE_MESSAGES) }];
  }
  // The last step waits long: a demo job stays running for tens of seconds, time to watch it and cancel it.
  plan[plan.length - 1]!.w = SLOW_STEPS;
  const last = events[events.length - 1]![0];
  return {
    orgId: agent.orgId, agentPk: agent.agentPk, versionPk: version.pk, versionName: version.name, status, createdMs, lastUpdatedMs: last,
    cost: null, durationMs: null, graderScore: null, verdict: null, inputs: inputsFor(random, version.inputs),
    metadata: jobMetadata(random, agent.kind), evaluation: null, feedbackReview: null, events, creatorId: random.pick(agent.userIds),
    plan, nextStepMs: nowMs + random.int(0, stepMs),
  };
}
