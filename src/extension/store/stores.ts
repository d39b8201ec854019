import * as vscode from 'vscode';
import { ServiceStore } from '../../core/store/serviceStore';
import type { ServiceClient } from '../../core/client';
import { jobsRefreshIntervalMs, watchIntervalMs } from '../configuration';
import type { Connection, ConnectionInfo } from '../connection/connection';
import { Settings, StateKeys } from '../constants';
import type { Log } from '../log';
import { Disposable } from '../util/disposable';
import { NotConnectedError } from '../util/errors';

/** How long after a label is made the labels are stored (one write for a whole list). */
const LABELS_SAVE_DELAY_MS = 1000;

/** Jobs and agents of a connection are kept under this key: the service and the organization (the window's sandbox is one service whatever its port). */
export function connectionKey(info: ConnectionInfo): string {
  return JSON.stringify([info.isSandbox ? 'local-sandbox' : info.baseUrl, info.organizationId]);
}

/**
 * The store of each connection this window has used: the current one is what every view, command,
 * job view, comparison and the status bar read. Watched jobs, caches and pending work stay with the
 * connection they came from: switching away pauses that store (nothing is asked of a service the
 * window no longer talks to), and switching back resumes it where it was.
 */
export class Stores extends Disposable {
  private readonly stores = new Map<string, ServiceStore>();
  private key: string | undefined;
  private readonly switched = this.register(new vscode.EventEmitter<ServiceStore | undefined>());
  /** Fires when the current store changes (another connection, or signed out). */
  readonly onDidSwitch = this.switched.event;
  private focused = vscode.window.state.focused;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connection: Connection,
    private readonly log: Log,
  ) {
    super();
    this.register({ dispose: () => [...this.stores.values()].forEach((store) => store.dispose()) });
    this.register(connection.onDidChange(() => this.follow()));
    this.register(vscode.window.onDidChangeWindowState((state) => {
      this.focused = state.focused;
      this.current?.watcher.setFocused(state.focused);
    }));
    this.register(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${Settings.section}.${Settings.watchIntervalSeconds}`)) for (const store of this.stores.values()) store.watcher.setIntervalMs(watchIntervalMs());
      if (e.affectsConfiguration(`${Settings.section}.${Settings.jobsRefreshIntervalSeconds}`)) for (const store of this.stores.values()) {
        store.watcher.setTrackingIntervalMs(jobsRefreshIntervalMs());
        store.setListIntervalMs(jobsRefreshIntervalMs());
      }
    }));
    this.follow();
  }

  /** The store of the current connection; undefined while signed out. */
  get current(): ServiceStore | undefined {
    return this.key === undefined ? undefined : this.stores.get(this.key);
  }

  /** The store of the current connection; throws the "not connected" error while signed out. */
  require(): ServiceStore {
    const store = this.current;
    if (!store) throw new NotConnectedError();
    return store;
  }

  private follow(): void {
    const state = this.connection.state;
    const key = state.kind === 'connected' ? connectionKey(state.info) : undefined;
    const before = this.current;
    if (key !== undefined && key === this.key && before) {
      // The same service with a new client (a new token, a new timeout): ask it from now on.
      before.watcher.setSource(this.sourceFor(key));
      return;
    }
    before?.watcher.setPaused(true);
    this.key = key;
    const store = key === undefined ? undefined : (this.stores.get(key) ?? this.create(key));
    if (store && key !== undefined) {
      store.watcher.setSource(this.sourceFor(key));
      store.watcher.setFocused(this.focused);
      store.watcher.setPaused(false);
    }
    if (store !== before) this.switched.fire(store);
  }

  private create(key: string): ServiceStore {
    const store = new ServiceStore(this.sourceFor(key), { intervalMs: watchIntervalMs(), listIntervalMs: jobsRefreshIntervalMs() });
    store.watcher.setTrackingIntervalMs(jobsRefreshIntervalMs());
    this.stores.set(key, store);
    const stateKey = `${StateKeys.watchedJobs}:${key}`;
    // Watched jobs from before stores were per connection go to the first connection made.
    const legacy = this.stores.size === 1 ? this.context.workspaceState.get(StateKeys.watchedJobs) : undefined;
    store.watcher.restore(this.context.workspaceState.get(stateKey) ?? legacy);
    if (legacy !== undefined) void this.context.workspaceState.update(StateKeys.watchedJobs, undefined);
    store.watcher.onDidChange(() => void this.context.workspaceState.update(stateKey, store.watcher.serialize()));
    this.keepLabels(store, `${StateKeys.jobLabels}:${key}`);
    this.log.debug(`Store for ${key} ready`);
    return store;
  }

  /** The labels a window showed come back in the next one; new ones are stored a moment after they are made (a list makes fifty at once). */
  private keepLabels(store: ServiceStore, stateKey: string): void {
    store.labels.restore(this.context.workspaceState.get(stateKey));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = (): void => {
      timer = undefined;
      void this.context.workspaceState.update(stateKey, store.labels.serialize());
    };
    store.labels.onDidKeep(() => (timer ??= setTimeout(save, LABELS_SAVE_DELAY_MS)));
    this.register({
      dispose: () => {
        if (timer === undefined) return;
        clearTimeout(timer);
        save();
      },
    });
  }

  /** The service as a store reads it: its own connection's client only, never another's. */
  private sourceFor(key: string) {
    const client = (): ServiceClient => {
      if (this.key !== key) throw new NotConnectedError();
      return this.connection.requireClient();
    };
    return {
      statuses: (ids: string[], signal: AbortSignal) => client().jobs.statuses(ids, { signal }),
      status: (id: string, signal: AbortSignal) => client().jobs.status(id, { signal }),
      recentJobs: (agentId: string, signal: AbortSignal, pageSize = 50) => client().jobs.list(agentId, { page_size: pageSize, ordering: '-created_at' }, { signal }),
    };
  }
}
