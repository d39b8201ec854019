// Activation, measured in a fresh extension host where nothing has activated the extension yet.
import * as vscode from 'vscode';
import type { ActivationProbe } from '../activationProbe';
import { profiled } from '../profiler';
import { AFTER_ACTIVATION_MS, type ActivationSample } from '../protocol';
import { EXTENSION_ID, ourExtension } from '../workbench';


interface PerfMarks {
  getMarks(): { name: string; startTime: number }[];
}

/** VS Code's own marks around the extension's code loading (ms resolution), when it set them. */
function vscodeCodeLoadMs(): number | null {
  const marks = (globalThis as { MonacoPerformanceMarks?: PerfMarks }).MonacoPerformanceMarks?.getMarks() ?? [];
  const at = (name: string): number | undefined => marks.find((m) => m.name === `code/extHost/${name}/${EXTENSION_ID}`)?.startTime;
  const will = at('willLoadExtensionCode');
  const did = at('didLoadExtensionCode');
  return will !== undefined && did !== undefined ? did - will : null;
}

/**
 * Activates the extension once and returns what the probe saw. With `profileTo`, the activation runs
 * under the CPU profiler and the profile is written there (its times are then not representative).
 */
export async function measureActivation(probe: ActivationProbe, profileTo?: string): Promise<ActivationSample> {
  const extension = ourExtension();
  if (extension.isActive) throw new Error('The extension is already active in this extension host: activation cannot be measured here.');
  const started = performance.now();
  await (profileTo ? profiled(profileTo, () => Promise.resolve(extension.activate())) : extension.activate());
  const apiWaitMs = performance.now() - started;
  const result = await probe.result(10_000);
  if (!result) throw new Error('The probe did not see the extension load and activate (was it installed before activation?).');
  await new Promise((resolve) => setTimeout(resolve, AFTER_ACTIVATION_MS));
  const loadedSoonAfter = probe.loadedSinceActivation();
  return { ...result, apiWaitMs, vscodeCodeLoadMs: vscodeCodeLoadMs(), loadedSoonAfter };
}

/** Opens VS Code's "Running Extensions" editor (the orchestrator reads its activation times). */
export async function showRunningExtensions(): Promise<null> {
  await vscode.commands.executeCommand('workbench.action.showRuntimeExtensions');
  return null;
}
