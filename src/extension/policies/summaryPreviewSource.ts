import * as vscode from 'vscode';
import type { SampleSource } from '../../core/summary/sampleContext';
import { Schemes } from '../constants';
import { parsePolicyEditUri } from '../documents/documentUris';

/** A document the Summary Preview can show: a policy version being edited, or a local JSON draft. */
export interface PreviewSource {
  document: vscode.TextDocument;
  kind: 'policy' | 'file';
  /** The key its sample is kept under: the policy's ID, or the file's URI. */
  sampleKey: string;
  title: string;
  sampleSource: SampleSource;
}

/** Larger JSON files are not scanned for a template when they merely become active. */
const MAX_SCANNED_CHARS = 5 * 1024 * 1024;
// Cheap pre-check for local files; the engine's real JSON reading decides when a preview opens.
const TEMPLATE_HINT = /"summary_template"\s*:\s*\{[\s\S]*?"template"\s*:\s*"/;

/** The preview source a document is, or undefined. Local files count only when they hold a template. */
export function previewSourceOf(document: vscode.TextDocument): PreviewSource | undefined {
  const policy = parsePolicyEditUri(document.uri);
  if (policy) {
    const title = tabTitle(document.uri);
    const split = title.lastIndexOf(' · ');
    const sampleSource = split < 0 ? { policyId: policy.policyId, policyName: title } : { policyId: policy.policyId, policyName: title.slice(0, split), versionName: title.slice(split + 3) };
    return { document, kind: 'policy', sampleKey: `policy:${policy.policyId}`, title, sampleSource };
  }
  if (document.uri.scheme === Schemes.edit || document.uri.scheme === Schemes.view || !looksLikeTemplateJson(document)) return undefined;
  const title = tabTitle(document.uri);
  return { document, kind: 'file', sampleKey: `file:${document.uri.toString()}`, title, sampleSource: { policyName: title } };
}

/** Whether a JSON document seems to hold `summary_template.template` (a quick text check, no parsing). */
export function looksLikeTemplateJson(document: vscode.TextDocument): boolean {
  if (!['json', 'jsonc'].includes(document.languageId) && !document.uri.path.endsWith('.json')) return false;
  const text = document.getText();
  return text.length <= MAX_SCANNED_CHARS && TEMPLATE_HINT.test(text);
}

function tabTitle(uri: vscode.Uri): string {
  const name = uri.path.split('/').pop() ?? '';
  return name.replace(/\.json$/i, '') || uri.toString();
}
