/** Every identifier the extension shares with package.json, in one place. */
export const EXTENSION_ID = 'agent-workbench.agent-workbench';

export const Commands = {
  signIn: 'agentWorkbench.signIn',
  signOut: 'agentWorkbench.signOut',
  startSandbox: 'agentWorkbench.startSandbox',
  stopSandbox: 'agentWorkbench.stopSandbox',
  showLog: 'agentWorkbench.showLog',
  showConnectionMenu: 'agentWorkbench.showConnectionMenu',
} as const;

export const Views = {
  container: 'agentWorkbench',
  agents: 'agentWorkbench.agents',
  policies: 'agentWorkbench.policies',
  datasets: 'agentWorkbench.datasets',
} as const;

export const Settings = {
  section: 'agentWorkbench',
  baseUrl: 'baseUrl',
  organizationId: 'organizationId',
  requestTimeoutSeconds: 'requestTimeoutSeconds',
} as const;

export const ContextKeys = {
  connected: 'agentWorkbench.connected',
  sandboxRunning: 'agentWorkbench.sandboxRunning',
  sandboxStarting: 'agentWorkbench.sandboxStarting',
} as const;

/** Keys in `globalState` (never secrets). */
export const StateKeys = {
  sandboxConnection: 'agentWorkbench.sandbox.connection',
  settingsBeforeSandbox: 'agentWorkbench.sandbox.previousSettings',
} as const;

/** Secrets are keyed by the service's origin, so a token is only ever used with the origin it was given for. */
export const tokenSecretKey = (origin: string): string => `agentWorkbench.token:${origin}`;

/** The environment variable naming a connection file (`{baseUrl, organizationId, token}`) the demo and tests provision. */
export const CONNECT_ENV = 'AGENT_WORKBENCH_CONNECT';
