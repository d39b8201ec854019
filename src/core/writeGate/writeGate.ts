/**
 * The one gate every write to the service passes (the client's gateway asks it before a POST, PUT, PATCH
 * or DELETE goes out). A write states why its target may be written — its ground — and the gate checks
 * the ground, never the caller's word:
 *
 * - **picked**: the user picked the target in this process (a tree row, a quick pick, the editor it came
 *   from, a confirmation that named it). Such a ground is issued by this gate for that target only
 *   ({@link WriteGate.userPicked}); a ground object the gate did not issue is refused.
 * - **madeHere**: this process made the target (the gate records what the service answered to this
 *   client's creations and runs, in memory; never read from a file).
 * - **trialCopy**: the service marks the target as a copy of this trial and this user's, read right
 *   before the write.
 * - **new**: the write makes something new (an agent, a policy, a table) and changes nothing that exists.
 *
 * An id from a file, a tool's input or an answer is only a candidate until one of these holds. A write
 * without a ground is refused in a sentence and logged.
 */
import { readMarker, trialUserName } from '../trial/trialMarker';
import { targetKey, targetText, WRITE_OPERATIONS, type WriteTarget } from './writeOperations';

export type { WriteTarget, TargetKind } from './writeOperations';

/** The trial a copy must belong to: its id and whose it is. */
export interface TrialIdentity {
  trialId: string;
  user: string;
}

/** A ground the gate issued for a target the user picked; only {@link WriteGate.userPicked} makes one. */
export interface PickedGround {
  readonly why: 'picked';
  /** Where the user picked it ("the Agents view", "the confirmation of Start 24 Jobs"). */
  readonly how: string;
  readonly target: WriteTarget;
}

/** Why a write's target may be written. */
export type WriteGround = PickedGround | { readonly why: 'madeHere' } | { readonly why: 'trialCopy'; readonly trial: TrialIdentity } | { readonly why: 'new' };

/** This process made the target. */
export const MADE_HERE: WriteGround = Object.freeze({ why: 'madeHere' });
/** The write makes something new. */
export const NEW_THING: WriteGround = Object.freeze({ why: 'new' });
/** The target is a copy the service marks as this trial's and this user's. */
export function trialCopy(trial: TrialIdentity): WriteGround {
  return { why: 'trialCopy', trial: { trialId: trial.trialId, user: trial.user } };
}

/** What the gate reads to check a trial copy; the client's own reads. */
export interface GateReader {
  agent(id: string, signal?: AbortSignal): Promise<{ id: string; description?: string | null; creator?: { id?: string | number } | null }>;
  policy(id: string, signal?: AbortSignal): Promise<{ id: string; description?: string | null }>;
  currentUser(signal?: AbortSignal): Promise<{ id: string | number; display_name?: string | null; first_name?: string | null; email?: string | null }>;
}

/** A write the gate refused: nothing was sent. */
export class WriteRefused extends Error {
  constructor(
    message: string,
    readonly operation: string,
    readonly target: WriteTarget | undefined,
  ) {
    super(message);
    this.name = 'WriteRefused';
  }
}

/** True for a {@link WriteRefused}. */
export function isWriteRefused(error: unknown): error is WriteRefused {
  return error instanceof WriteRefused;
}

export interface WriteGateOptions {
  /** Refusals go here (the extension's log, the command line's stderr). */
  log?: (line: string) => void;
}

/** What a write asks of the gate. */
export interface WriteRequest {
  operation: string;
  target?: WriteTarget;
  ground?: WriteGround;
}

/** The gate of one client: what the user picked and what this process made, and the checks of every write. */
export class WriteGate {
  private readonly issued = new WeakSet<object>();
  private readonly made = new Set<string>();
  private readonly triedHere = new Map<string, unknown>();

  constructor(
    private readonly reader: GateReader,
    private readonly options: WriteGateOptions = {},
  ) {}

  /** A ground for a target the user picked in this process, said where ("the Agents view"). */
  userPicked(target: WriteTarget, how: string): PickedGround {
    const ground: PickedGround = Object.freeze({ why: 'picked', how, target: Object.freeze({ kind: target.kind, id: target.id }) });
    this.issued.add(ground);
    return ground;
  }

  /** True when this process made the target (an answer of this client's creation or run). */
  madeHere(target: WriteTarget): boolean {
    return this.made.has(targetKey(target));
  }

  /** Records that this process ran a trial's comparison to its end with this content (what Publish may then publish). */
  recordTried(trialId: string, content: unknown): void {
    this.triedHere.set(trialId, structuredClone(content));
  }

  /** The content of a trial this process ran to the end, if it did. */
  tried(trialId: string): unknown {
    const content = this.triedHere.get(trialId);
    return content === undefined ? undefined : structuredClone(content);
  }

  /** Records what a write of this client made, from the service's answer. */
  recordMade(operation: string, target: WriteTarget | undefined, answer: unknown): void {
    const add = (kind: WriteTarget['kind'], id: unknown): void => {
      if (typeof id === 'string' && id !== '') this.made.add(targetKey({ kind, id }));
    };
    const record = (answer ?? {}) as { id?: unknown; base_agent?: { id?: unknown } };
    switch (operation) {
      case 'createAgent':
      case 'createPolicy':
        add(operation === 'createAgent' ? 'agent' : 'policy', record.id);
        break;
      case 'duplicateAgent':
        add('agent', record.base_agent?.id);
        break;
      case 'runAgent':
      case 'runAgentVersion':
        add('job', answer);
        break;
      case 'runAgentMany':
        if (Array.isArray(answer)) for (const id of answer) add('job', id);
        break;
      case 'uploadTable':
        if (target) add('table', target.id);
        break;
    }
  }

  /** Checks one write before it is sent; throws {@link WriteRefused} (logged) when its ground does not hold. */
  async admit(request: WriteRequest, signal?: AbortSignal): Promise<void> {
    const problem = await this.problemOf(request, signal);
    if (problem === undefined) return;
    const message = `Not written: ${problem}`;
    this.options.log?.(`write refused (${request.operation}${request.target ? ` on ${targetText(request.target)}` : ''}): ${problem}`);
    throw new WriteRefused(message, request.operation, request.target);
  }

  private async problemOf({ operation, target, ground }: WriteRequest, signal?: AbortSignal): Promise<string | undefined> {
    const writes = WRITE_OPERATIONS[operation];
    if (writes === undefined) return `${operation} is not a write this product knows, so it is not sent.`;
    if (writes === 'nothing') return undefined;
    if (writes === 'new') return ground?.why === 'new' || ground?.why === 'picked' ? undefined : `${operation} makes something new and must say so.`;
    if (!target || target.kind !== writes || target.id === '') return `${operation} names no ${writes} to write.`;
    const what = `${targetText(target)} is only named by a file, a tool's input or an answer`;
    switch (ground?.why) {
      case undefined:
      case 'new':
        return `${what}: nothing says the user picked it, this window made it, or the service marks it as this trial's copy.`;
      case 'picked':
        return this.issued.has(ground) && ground.target.kind === target.kind && ground.target.id === target.id ? undefined : `${what}: the user did not pick it here.`;
      case 'madeHere':
        return this.madeHere(target) ? undefined : `${what}: this window did not make it.`;
      case 'trialCopy':
        return this.trialCopyProblem(target, ground.trial, what, signal);
    }
  }

  /** Reads the target now: it must carry this trial's marker, for the signed-in user, and be theirs where the service says whose it is. */
  private async trialCopyProblem(target: WriteTarget, trial: TrialIdentity, what: string, signal?: AbortSignal): Promise<string | undefined> {
    if (target.kind !== 'agent' && target.kind !== 'policy') return `${what}: only an agent or a policy can be a trial's copy.`;
    const [item, user] = await Promise.all([target.kind === 'agent' ? this.reader.agent(target.id, signal) : this.reader.policy(target.id, signal), this.reader.currentUser(signal).catch(() => undefined)]);
    const marker = readMarker(item.description);
    if (!marker || marker.trialId !== trial.trialId) return `${what}: the service does not mark it as a copy of trial ${trial.trialId}.`;
    const me = trialUserName(user);
    if (marker.user !== me || trial.user !== me) return `${what}: it is marked as ${marker.user}'s trial copy, not yours.`;
    const creator = (item as { creator?: { id?: string | number } | null }).creator?.id;
    if (creator !== undefined && creator !== null && user !== undefined && String(creator) !== String(user.id)) return `${what}: the service says another user made it.`;
    return undefined;
  }
}
