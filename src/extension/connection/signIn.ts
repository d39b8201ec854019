import * as vscode from 'vscode';
import { baseUrlProblem, hostOf, normalizeBaseUrl, organizationIdProblem } from '../../core/connectionSettings';
import { readConnectionSettings } from '../configuration';
import { loadCore } from '../lazyCore';
import { CancelledError } from '../util/errors';
import type { Connection } from './connection';

/**
 * Sign In: asks for the service and organization when the settings do not name them (or the user
 * asks to change them), then for the token in a password input, which stays open with the problem
 * shown until the service accepts the token. Only then is it stored.
 */
export async function signIn(connection: Connection, given?: { baseUrl: string; organizationId: string; token: string }, options: { askService?: boolean } = {}): Promise<boolean> {
  if (given) return signInWith(connection, given);
  const settings = readConnectionSettings();
  let target = settings.baseUrl && settings.organizationId && !options.askService ? { baseUrl: settings.baseUrl, organizationId: settings.organizationId } : undefined;
  for (;;) {
    target ??= await askService(settings.baseUrl, settings.organizationId);
    const token = await askToken(connection, target);
    if (token === 'change') {
      target = undefined;
      continue;
    }
    await connection.signIn(target.baseUrl, target.organizationId, token.token);
    void vscode.window.showInformationMessage(`Signed in to ${hostOf(target.baseUrl)}.`);
    return true;
  }
}

/** Sign-in without prompts (scripts and tests): the same checks, and an error instead of an inline message. */
async function signInWith(connection: Connection, given: { baseUrl: string; organizationId: string; token: string }): Promise<boolean> {
  const problem = baseUrlProblem(given.baseUrl) ?? organizationIdProblem(given.organizationId) ?? (await checkToken(connection, { baseUrl: normalizeBaseUrl(given.baseUrl), organizationId: given.organizationId }, given.token));
  if (problem) throw new Error(`Not signed in: ${problem}`);
  await connection.signIn(normalizeBaseUrl(given.baseUrl), given.organizationId, given.token);
  return true;
}

async function askService(baseUrl?: string, organizationId?: string): Promise<{ baseUrl: string; organizationId: string }> {
  const url = await vscode.window.showInputBox({
    title: 'Sign In (1/2): service URL',
    prompt: 'The base URL of the agent platform service (requests go to <URL>/v1/...)',
    value: baseUrl ?? 'https://',
    ignoreFocusOut: true,
    validateInput: (v) => baseUrlProblem(v),
  });
  if (url === undefined) throw new CancelledError();
  const org = await vscode.window.showInputBox({
    title: 'Sign In (2/2): organization',
    prompt: 'The ID of the organization to work in (a UUID)',
    value: organizationId ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => organizationIdProblem(v),
  });
  if (org === undefined) throw new CancelledError();
  return { baseUrl: normalizeBaseUrl(url), organizationId: org.trim() };
}

const changeServiceButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Change service URL or organization' };

function askToken(connection: Connection, target: { baseUrl: string; organizationId: string }): Promise<{ token: string } | 'change'> {
  return new Promise((resolve, reject) => {
    const input = vscode.window.createInputBox();
    input.title = `Sign In to ${hostOf(target.baseUrl)}`;
    input.prompt = `Access token for organization ${target.organizationId}. It is checked with the service, then kept in VS Code's secret storage.`;
    input.placeholder = 'Access token';
    input.password = true;
    input.ignoreFocusOut = true;
    input.buttons = [changeServiceButton];
    let settled = false;
    const finish = (action: () => void): void => {
      settled = true;
      action();
      input.dispose();
    };
    input.onDidTriggerButton(() => finish(() => resolve('change')));
    input.onDidChangeValue(() => (input.validationMessage = undefined));
    input.onDidHide(() => {
      if (!settled) finish(() => reject(new CancelledError()));
    });
    input.onDidAccept(async () => {
      const token = input.value.trim();
      if (!token) {
        input.validationMessage = 'Enter the access token';
        return;
      }
      input.busy = true;
      input.enabled = false;
      const problem = await checkToken(connection, target, token);
      if (settled) return;
      input.busy = false;
      input.enabled = true;
      if (problem) input.validationMessage = problem;
      else finish(() => resolve({ token }));
    });
    input.show();
  });
}

/** Asks the service whether the token opens this organization; a problem text, or undefined when it does. */
async function checkToken(connection: Connection, target: { baseUrl: string; organizationId: string }, token: string): Promise<string | undefined> {
  let client: ReturnType<Connection['createClient']> | undefined;
  try {
    // Inside the try: a client that cannot even be built is a problem to show, never a box left busy.
    client = connection.createClient(target, token);
    await client.agents.list({ page: 1, page_size: 1, include_job_stats: false });
    return undefined;
  } catch (error) {
    const { isServiceError } = loadCore();
    if (isServiceError(error) && error.status === 401) return 'The service did not accept this token (401). Check it and try again.';
    if (isServiceError(error) && error.status === 403) return `This token has no access to organization ${target.organizationId} (403).`;
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client?.close();
  }
}
