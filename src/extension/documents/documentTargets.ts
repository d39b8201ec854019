/**
 * Whose new version a document of our scheme saves. A document this window opened from a view (Open
 * Version, Create Version…) saves to the target the user picked there: "the editor it came from". One it
 * did not open — a tab restored after a reload, a link — only names its target in its address, and an
 * address is a candidate: before its first save to that target in this window, the user confirms it, named
 * as the service names it. That answer is the ground of the write, and of later saves to it in this window.
 */
import type { ServiceClient } from '../../core/client';
import type { WriteGround, WriteTarget } from '../../core/writeGate/writeGate';
import { CancelledError } from '../util/errors';
import { askModal } from '../util/modal';
import { PICKED_IN, picked } from '../util/picked';

/** Where a document came from: opened from a view in this window, or only named by its address. */
export type DocumentOrigin = 'openedHere' | 'addressOnly';

const SAVE = 'Save as New Version';

/** The targets of documents of this window, and the ones the user confirmed for documents it did not open. */
export class DocumentTargets {
  private readonly confirmed = new Set<string>();

  /**
   * The ground of saving a new version of `target` from a document of `origin`; for an address-only one,
   * asks first (once in this window), naming it as the service does (`serviceName` reads it).
   */
  async ground(client: ServiceClient, origin: DocumentOrigin, target: WriteTarget, serviceName: () => Promise<string>): Promise<WriteGround | undefined> {
    if (origin === 'openedHere') return picked(client, target, PICKED_IN.editor);
    const key = `${client.baseUrl} ${client.organizationId ?? ''} ${target.kind}:${target.id}`;
    const name = await serviceName();
    if (!this.confirmed.has(key)) {
      const kind = target.kind === 'agent' ? 'agent' : 'policy';
      const detail = `This editor was not opened from the ${kind === 'agent' ? 'Agents' : 'Policies'} view in this window (it was restored, or opened from a link): its address names the ${kind} ${target.id}, which the service calls “${name}”. Saving creates a new version of it, which becomes its current version.`;
      if ((await askModal(`Save as a new version of the ${kind} “${name}”?`, detail, SAVE)) !== SAVE) throw new CancelledError();
      this.confirmed.add(key);
    }
    return picked(client, target, `the confirmation of saving to “${name}”`);
  }
}
