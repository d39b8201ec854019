import type { Creator, ServiceClient } from '../../core/client';
import { creatorName } from '../agents/agentNodes';

/** The part of a client that names the signed-in user, where the client has it. */
interface WithCurrentUser {
  users?: { current?: () => Promise<unknown> };
}

/**
 * Says who made a version, and whether it was the signed-in user: a version this window created is
 * theirs; otherwise the version's author is compared with the current user, when the client can name them.
 */
export class Authorship {
  private readonly createdHere = new Set<string>();
  private readonly currentUser = new WeakMap<ServiceClient, Promise<Creator | undefined>>();

  /** Remembers a version this window created. */
  noteCreated(versionId: string): void {
    this.createdHere.add(versionId);
  }

  /** The author's name (if the service sent one) and whether it is the signed-in user. */
  async describe(client: ServiceClient, versionId: string, author: Creator | null | undefined): Promise<{ author: string | undefined; byYou: boolean }> {
    const name = creatorName(author);
    if (this.createdHere.has(versionId)) return { author: name, byYou: true };
    const me = await this.me(client);
    return { author: name, byYou: me !== undefined && author !== undefined && author !== null && sameUser(me, author) };
  }

  private me(client: ServiceClient): Promise<Creator | undefined> {
    let known = this.currentUser.get(client);
    if (!known) {
      const users = (client as unknown as WithCurrentUser).users;
      known = typeof users?.current === 'function' ? users.current().then((user) => user as Creator, () => undefined) : Promise.resolve(undefined);
      this.currentUser.set(client, known);
    }
    return known;
  }
}

function sameUser(a: Creator, b: Creator): boolean {
  if (a.id !== undefined && b.id !== undefined) return String(a.id) === String(b.id);
  return Boolean(a.email && b.email && a.email.toLowerCase() === b.email.toLowerCase());
}
