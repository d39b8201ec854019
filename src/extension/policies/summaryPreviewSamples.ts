import type * as vscode from 'vscode';
import { isStoredSample, rememberSample, MAX_REMEMBERED_SAMPLE_CHARS, type StoredSample } from '../../core/summary/sampleMemory';
import { SummaryPreviewIds } from '../constants';

/**
 * The sample data of each policy (or local file), kept in `globalState` so it survives reloads and is
 * the same in every window. A sample too large to keep lives for this session only.
 */
export class SummarySamples {
  private readonly session = new Map<string, StoredSample>();

  constructor(private readonly state: vscode.Memento) {}

  /** The sample kept for a key, if any. */
  get(key: string): (StoredSample & { remembered: boolean }) | undefined {
    const live = this.session.get(key);
    if (live) return { ...live, remembered: false };
    const stored = this.all()[key];
    return stored ? { ...stored, remembered: true } : undefined;
  }

  /** Keeps a sample for a key (the newest replaces the old one). */
  async set(key: string, text: string, origin: string): Promise<StoredSample & { remembered: boolean }> {
    const sample: StoredSample = { text, origin, usedAt: Date.now() };
    const remembered = text.length <= MAX_REMEMBERED_SAMPLE_CHARS;
    if (remembered) this.session.delete(key);
    else this.session.set(key, sample);
    await this.state.update(SummaryPreviewIds.samplesState, rememberSample(this.all(), key, sample));
    return { ...sample, remembered };
  }

  private all(): Record<string, StoredSample> {
    const raw = this.state.get<unknown>(SummaryPreviewIds.samplesState);
    if (!raw || typeof raw !== 'object') return {};
    return Object.fromEntries(Object.entries(raw as Record<string, unknown>).filter((entry): entry is [string, StoredSample] => isStoredSample(entry[1])));
  }
}
