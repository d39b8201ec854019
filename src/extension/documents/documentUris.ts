import * as vscode from 'vscode';
import { Schemes } from '../constants';

/**
 * URIs of our documents. IDs travel in the path (no query: JSON schema `fileMatch` compares whole URI
 * strings), and the last segment is a readable name, which VS Code shows as the tab title.
 */
export type ViewTarget =
  | { kind: 'agentVersion'; agentId: string; versionId: string }
  | { kind: 'job'; agentId: string; jobId: string }
  | { kind: 'jobArtifact'; agentId: string; jobId: string; artifactKey: string }
  | { kind: 'policyVersion'; policyId: string; versionId: string };

/** A file-name-safe form of a service name for a tab title. */
export function titleSegment(text: string): string {
  // Look-alike characters keep names readable ("Q2: v3/EU") where the real ones cannot stand in a path.
  const lookAlike: Record<string, string> = { '/': '∕', '\\': '⧵', ':': '꞉', '*': '∗', '?': '？', '"': '”', '<': '‹', '>': '›', '|': '∣' };
  const cleaned = text
    .replace(/[\\/:*?"<>|]/g, (c) => lookAlike[c] ?? '-')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what a tab title cannot show
    .replace(/[\u0000-\u001f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.slice(0, 120) || 'untitled';
}

/** The read-only document of an agent version: "Agent name · version name.json". */
export function agentVersionUri(agentId: string, versionId: string, agentName: string, versionName: string): vscode.Uri {
  return vscode.Uri.from({ scheme: Schemes.view, path: `/agents/${agentId}/versions/${versionId}/${titleSegment(`${agentName} · ${versionName}`)}.json` });
}

/** The read-only raw JSON of a job: "Job 1a2b3c4d · Agent name.json". */
export function jobUri(agentId: string, jobId: string, agentName: string): vscode.Uri {
  return vscode.Uri.from({ scheme: Schemes.view, path: `/agents/${agentId}/jobs/${jobId}/${titleSegment(`Job ${jobId.slice(0, 8)} · ${agentName}`)}.json` });
}

/**
 * The read-only JSON of an artifact a job's outputs name: "Artifact NAME · Job 1a2b3c4d.json". The key
 * (it has slashes) travels as one base64url segment.
 */
export function jobArtifactUri(agentId: string, jobId: string, artifactKey: string, name: string): vscode.Uri {
  const key = Buffer.from(artifactKey, 'utf8').toString('base64url');
  return vscode.Uri.from({ scheme: Schemes.view, path: `/agents/${agentId}/jobs/${jobId}/artifacts/${key}/${titleSegment(`Artifact ${name} · Job ${jobId.slice(0, 8)}`)}.json` });
}

/** The read-only document of a policy version (left side of comparisons): "Policy name · version name.json". */
export function policyVersionViewUri(policyId: string, versionId: string, policyName: string, versionName: string): vscode.Uri {
  return vscode.Uri.from({ scheme: Schemes.view, path: `/policies/${policyId}/versions/${versionId}/${titleSegment(`${policyName} · ${versionName}`)}.json` });
}

/** The editable document of a policy version; saving it creates a new version. */
export function policyVersionEditUri(policyId: string, versionId: string, policyName: string, versionName: string): vscode.Uri {
  return vscode.Uri.from({ scheme: Schemes.edit, path: `/policies/${policyId}/${versionId}/${titleSegment(`${policyName} · ${versionName}`)}.json` });
}

/** How messages name one of our documents: its tab title in quotes, “Refunds · version 3”. */
export function documentTitle(uri: vscode.Uri): string {
  const file = uri.path.split('/').pop() ?? '';
  return `“${file.replace(/\.json$/, '')}”`;
}

/** The policy and version an editable policy URI names. */
export function parsePolicyEditUri(uri: vscode.Uri): { policyId: string; versionId: string } | undefined {
  if (uri.scheme !== Schemes.edit) return undefined;
  const [kind, policyId, versionId] = uri.path.split('/').filter(Boolean);
  return kind === 'policies' && policyId && versionId ? { policyId, versionId } : undefined;
}

/** What a read-only URI shows, or undefined for a URI that is not ours. */
export function parseViewUri(uri: vscode.Uri): ViewTarget | undefined {
  if (uri.scheme !== Schemes.view) return undefined;
  const parts = uri.path.split('/').filter(Boolean);
  if (parts[0] === 'agents' && parts[2] === 'versions' && parts[1] && parts[3]) return { kind: 'agentVersion', agentId: parts[1], versionId: parts[3] };
  if (parts[0] === 'agents' && parts[2] === 'jobs' && parts[4] === 'artifacts' && parts[1] && parts[3] && parts[5]) {
    return { kind: 'jobArtifact', agentId: parts[1], jobId: parts[3], artifactKey: Buffer.from(parts[5], 'base64url').toString('utf8') };
  }
  if (parts[0] === 'agents' && parts[2] === 'jobs' && parts[1] && parts[3]) return { kind: 'job', agentId: parts[1], jobId: parts[3] };
  if (parts[0] === 'policies' && parts[2] === 'versions' && parts[1] && parts[3]) return { kind: 'policyVersion', policyId: parts[1], versionId: parts[3] };
  return undefined;
}
