import * as vscode from 'vscode';
import { Settings } from './constants';
import { baseUrlProblem, normalizeBaseUrl, organizationIdProblem } from '../core/connectionSettings';
import type { JobLimits } from '../core/tools/jobBudget';

/** The connection settings as they stand, with a problem text when they cannot be used. */
export interface ConnectionSettings {
  baseUrl: string | undefined;
  organizationId: string | undefined;
  problem: string | undefined;
}

function section(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(Settings.section);
}

/** Reads and validates the base URL and organization ID. */
export function readConnectionSettings(): ConnectionSettings {
  const rawUrl = (section().get<string>(Settings.baseUrl) ?? '').trim();
  const rawOrg = (section().get<string>(Settings.organizationId) ?? '').trim();
  const urlProblem = rawUrl ? baseUrlProblem(rawUrl) : undefined;
  const orgProblem = rawOrg ? organizationIdProblem(rawOrg) : undefined;
  return {
    baseUrl: rawUrl && !urlProblem ? normalizeBaseUrl(rawUrl) : undefined,
    organizationId: rawOrg && !orgProblem ? rawOrg : undefined,
    problem: urlProblem ? `Setting ${Settings.section}.${Settings.baseUrl}: ${urlProblem}` : orgProblem ? `Setting ${Settings.section}.${Settings.organizationId}: ${orgProblem}` : undefined,
  };
}

/** Writes both connection settings to the user's (global) settings. */
export async function writeConnectionSettings(baseUrl: string, organizationId: string): Promise<void> {
  await section().update(Settings.baseUrl, baseUrl, vscode.ConfigurationTarget.Global);
  await section().update(Settings.organizationId, organizationId, vscode.ConfigurationTarget.Global);
}

/** The request timeout in milliseconds (setting in seconds). */
export function requestTimeoutMs(): number {
  const seconds = section().get<number>(Settings.requestTimeoutSeconds) ?? 30;
  return Math.min(Math.max(seconds, 1), 600) * 1000;
}

/** True when a configuration change touches the connection. */
export function affectsConnection(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${Settings.section}.${Settings.baseUrl}`) || event.affectsConfiguration(`${Settings.section}.${Settings.organizationId}`) || event.affectsConfiguration(`${Settings.section}.${Settings.requestTimeoutSeconds}`);
}

/** Items per page of every list (setting, bounded). */
export function pageSize(): number {
  const value = section().get<number>(Settings.pageSize) ?? 50;
  return Math.min(Math.max(Math.round(value), 5), 500);
}

/** Seconds between refreshes of the running jobs shown in the Agents view. */
export function jobsRefreshIntervalMs(): number {
  const value = section().get<number>(Settings.jobsRefreshIntervalSeconds) ?? 5;
  return Math.min(Math.max(value, 2), 300) * 1000;
}

/** Seconds between polls of the watched jobs in the status bar. */
export function watchIntervalMs(): number {
  const value = section().get<number>(Settings.watchIntervalSeconds) ?? 5;
  return Math.min(Math.max(value, 2), 300) * 1000;
}

/** Whether Run Query sends SQL to the tables endpoint where the server has it (else always the database query, with no row limit). */
export function queriesUseTablesEndpoint(): boolean {
  return section().get<boolean>(Settings.queriesUseTablesEndpoint) ?? true;
}

/** Rows a table query may return (setting, 1–1000 as the service allows). */
export function tablesQueryRowLimit(): number {
  const value = section().get<number>(Settings.tablesQueryRowLimit) ?? 1000;
  return Math.min(Math.max(Math.round(value), 1), 1000);
}

/** The metadata field that labels job rows (empty: the start of the first input does). */
export function jobLabelField(): string | undefined {
  return section().get<string>(Settings.jobsLabelField)?.trim() || undefined;
}

/** The job limits of the tools in this window (settings; the MCP server has --max-jobs and --max-session-jobs). */
export function toolLimits(): JobLimits {
  const count = (key: string, fallback: number): number => Math.max(Math.round(section().get<number>(key) ?? fallback), 0);
  return {
    perMinute: count(Settings.toolsMaxJobs, 200),
    perSession: count(Settings.toolsMaxJobsPerSession, 1000),
    raise: { perMinute: `the setting ${Settings.section}.${Settings.toolsMaxJobs}`, perSession: `the setting ${Settings.section}.${Settings.toolsMaxJobsPerSession} (or reload the window)` },
  };
}
