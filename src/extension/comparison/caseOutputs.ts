import * as vscode from 'vscode';
import type { ComparisonRecord } from '../core';
import { CASE_OUTPUTS_SCHEME } from '../constants';
import { titleSegment } from '../documents/documentUris';
import { loadCore } from '../lazyCore';
import { Disposable } from '../util/disposable';

/** The read-only document of one case's full outputs on one target (a side of the case diff). */
export function caseOutputsUri(comparison: vscode.Uri, caseIndex: number, targetIndex: number, targetLabel: string): vscode.Uri {
  return vscode.Uri.from({ scheme: CASE_OUTPUTS_SCHEME, path: `/${caseIndex}/${targetIndex}/${titleSegment(targetLabel)}.md`, query: comparison.toString() });
}

/**
 * Serves case outputs from the comparison record (the open one, else the file), so a case diff works
 * offline. Every output is a section of its own, so a diff lines up output by output.
 */
export class CaseOutputs extends Disposable implements vscode.TextDocumentContentProvider {
  constructor(private readonly openRecord: (comparisonUri: string) => ComparisonRecord | undefined) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(CASE_OUTPUTS_SCHEME, this));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const [caseIndex, targetIndex] = uri.path.split('/').filter(Boolean).map(Number);
    const record = this.openRecord(uri.query) ?? loadCore().parseComparison(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(uri.query))));
    const c = record.cases[caseIndex ?? -1];
    const target = record.targets[targetIndex ?? -1];
    if (!c || !target) return 'This case is no longer in the comparison.';
    const run = c.runs[target.id];
    const lines = [`# ${loadCore().caseLabel(c)} — ${target.label}`, ''];
    if (!run) return [...lines, 'No job was started for this case on this target.'].join('\n');
    lines.push(`Job: ${run.jobId}`, '');
    if (run.error) lines.push(`Error: ${run.error}`, '');
    // Why it changed, beside the diff: the rules whose result differs from the baseline's run of the case.
    const baseline = record.targets.find((t) => t.id === record.baselineId);
    const changes = baseline && baseline.id !== target.id ? loadCore().ruleChanges(c.runs[baseline.id]?.outputs, run.outputs) : [];
    if (baseline && changes.length) {
      lines.push(`## Rules that changed (against ${baseline.label})`, '');
      for (const change of changes) lines.push(`- “${change.rule}” — matched by ${change.matchedBy === 'baseline' ? baseline.label : target.label} only`);
      lines.push('');
    }
    if (run.outputs === undefined) lines.push('The result has not been read yet.');
    for (const output of run.outputs ?? []) lines.push(`## ${output.key}`, '', readable(output.value, output.data_type), '');
    return lines.join('\n');
  }
}

// JSON outputs are indented, so a diff shows the fields that changed rather than one long line.
function readable(value: string | null, dataType: string | null | undefined): string {
  if (value === null) return '(none)';
  if (dataType !== 'application/json') return value;
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
}
