import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/client';
import { isInsideFolder } from '../../core/runs/workspacePath';
import type { Expected, LabelEdit, LabelResult } from '../core';
import { isWorkspaceTrusted } from '../commands/workspaceTrust';
import type { Connection } from '../connection/connection';
import { loadCore } from '../lazyCore';
import { askNote, pickExpected, readDispositions } from './labelPrompts';
import type { ComparisonSession } from './comparisonSession';

/** This Is Right (the cell's outcome becomes what the case expects) or Set Expected… (the user's pick). */
export type LabelAction = 'right' | 'set';

/** What the page, a cell's context menu or a test asks to label. */
export interface LabelRequest {
  caseIndex: number;
  /** The target whose cell was chosen. */
  target: number;
  /** The compared output (index into the comparison's keys; 0, the outcome, by default). */
  key?: number;
  action: LabelAction;
  /** Answers in place of the pickers (tests): the expectation (null: none) and the note. */
  expected?: Expected | null;
  note?: string;
}

/** How long reading who is signed in may take before the label goes without a name. */
const USER_MS = 5000;
const names = new WeakMap<ServiceClient, Promise<string | undefined>>();

/**
 * Labels a case of an open comparison: the label is written into its test set — an edit of the open
 * document when it is open (unsaved edits are kept; the user reviews and saves), else of the file — over
 * the expectation the comparison showed. The comparison takes the new label at once; no job runs.
 * Answers whether a label was written.
 */
export function labelCase(session: ComparisonSession, request: LabelRequest, connection: Connection): Promise<boolean> {
  // One label at a time per comparison: each goes over the expectation the one before it left (a fast
  // pass by keyboard sends several before the first is written).
  const queued = (queues.get(session) ?? Promise.resolve()).catch(() => undefined).then(() => labelNow(session, request, connection));
  queues.set(session, queued);
  return queued;
}

const queues = new WeakMap<ComparisonSession, Promise<unknown>>();

async function labelNow(session: ComparisonSession, request: LabelRequest, connection: Connection): Promise<boolean> {
  if (!isWorkspaceTrusted()) throw new Error('Labelling writes into the workspace’s test set: it needs a trusted workspace. Trust this folder (Workspaces: Manage Workspace Trust) to label cases.');
  const core = loadCore();
  const record = session.record;
  const c = record.cases[request.caseIndex];
  if (!c || !record.targets[request.target]) return false;
  const file = await testSetFile(session);
  const expected = await chosenExpected(session, request, connection);
  const note = request.note ?? (request.action === 'set' && request.expected === undefined ? await askNote(core.caseLabel(c)) : undefined);
  const label = { note: note?.trim() || undefined, by: await labellerName(connection), at: new Date().toISOString() };
  const edit = core.caseLabelEdit(record, request.caseIndex, expected, label);
  const { result, text } = await writeInto(file, edit);
  if (!result.ok) {
    // What the file says now is what the comparison shows from now on: the next label goes over it.
    session.takeExpectations(text);
    session.notice(result.message, true);
    void vscode.window.showWarningMessage(result.message);
    return false;
  }
  session.takeExpectations(result.text);
  return true;
}

/** The expectation to write: the cell's outcome, the test's answer, or the user's pick. */
async function chosenExpected(session: ComparisonSession, request: LabelRequest, connection: Connection): Promise<Expected | undefined> {
  const core = loadCore();
  if (request.action === 'right') {
    const expected = core.expectedFromCell(session.record, request.caseIndex, request.target);
    if (!expected) throw new Error('This cell has no finished outcome to agree with: label it with Set Expected… instead.');
    return expected;
  }
  if (request.expected !== undefined) return request.expected ?? undefined;
  return pickExpected(session.record, request.caseIndex, request.target, request.key ?? 0, () => readDispositions(connection, session.record));
}

/** The comparison's test set, inside the workspace (its real path too: a link may not lead out). */
async function testSetFile(session: ComparisonSession): Promise<vscode.Uri> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const found = loadCore().testSetFileOf(session.document.uri.fsPath, session.record.testSet, folders);
  if (!found.ok) throw new Error(found.reason);
  const real = await fs.realpath(found.path).catch(() => undefined);
  if (!real) throw new Error(`The comparison's test set ${session.record.testSet} is not there any more: nothing was labelled.`);
  const realFolders = await Promise.all(folders.map((f) => fs.realpath(f).catch(() => f)));
  if (!realFolders.some((f) => isInsideFolder(f, real))) throw new Error(`The comparison's test set ${session.record.testSet} links outside the workspace folders: labels are written into the workspace's own files only.`);
  return vscode.Uri.file(found.path);
}

/**
 * Edits the test set: the open document's text (so unsaved edits stay and the user saves), else the
 * file's bytes, where only the labelled line's bytes change (a BOM, line ends and bytes that are not
 * UTF-8 elsewhere are kept). Answers the result and the text it was worked out on.
 */
async function writeInto(file: vscode.Uri, edit: LabelEdit): Promise<{ result: LabelResult; text: string }> {
  const core = loadCore();
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.toString());
  if (open) {
    const text = open.getText();
    const result = core.writeLabel(file.path, text, edit);
    if (!result.ok) return { result, text };
    const change = new vscode.WorkspaceEdit();
    for (const r of result.replacements) change.replace(file, new vscode.Range(open.positionAt(r.start), open.positionAt(r.end)), r.text);
    if (!(await vscode.workspace.applyEdit(change))) throw new Error(`The label could not be written into ${vscode.workspace.asRelativePath(file)}: VS Code refused the edit.`);
    return { result, text };
  }
  const { result, text, bytes } = core.writeLabelBytes(file.path, await vscode.workspace.fs.readFile(file), edit);
  if (bytes) await vscode.workspace.fs.writeFile(file, bytes);
  return { result, text };
}

/** The signed-in user's name as trials give it; undefined when not connected or the service does not say (the label goes without one). */
async function labellerName(connection: Connection): Promise<string | undefined> {
  let client: ServiceClient;
  try {
    client = connection.requireClient();
  } catch {
    return undefined;
  }
  let name = names.get(client);
  if (!name) {
    name = client.users.current({ signal: AbortSignal.timeout(USER_MS) }).then((user) => loadCore().userDisplayName(user), () => undefined);
    names.set(client, name);
  }
  return name;
}

/** Reads the command's argument: a cell's context (from the page's context menu) or a test's request. */
export function labelRequestOf(arg: unknown, action: LabelAction): (LabelRequest & { comparison?: vscode.Uri }) | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const a = arg as Record<string, unknown>;
  const index = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!index(a.caseIndex) || !index(a.target) || (a.key !== undefined && !index(a.key))) return undefined;
  const request: LabelRequest & { comparison?: vscode.Uri } = { caseIndex: a.caseIndex, target: a.target, key: a.key, action };
  // Only a caller in this extension host (a test) passes these: a webview's context is plain data.
  if (a.comparison instanceof vscode.Uri) request.comparison = a.comparison;
  if (a.expected === null || isExpected(a.expected)) request.expected = a.expected;
  if (typeof a.note === 'string') request.note = a.note;
  return request;
}

function isExpected(v: unknown): v is Expected {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const e = v as Record<string, unknown>;
  const outputs = e.outputs;
  const outputsOk = outputs === undefined || (typeof outputs === 'object' && outputs !== null && !Array.isArray(outputs) && Object.values(outputs).every((o) => typeof o === 'string'));
  return (e.disposition === undefined || typeof e.disposition === 'string') && outputsOk;
}
