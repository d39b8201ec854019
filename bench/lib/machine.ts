// The machine a benchmark ran on, as results.md states it: cores, CPU, memory, load, Node, browser.
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';

export interface Machine {
  cores: number;
  cpu: string;
  memoryGiB: number;
  os: string;
  node: string;
  chromium: string | null;
  codeServer: string;
  /** 1-minute load average when the run started and ended (other work on a shared machine shows here). */
  loadAverage: { start: number; end: number | null };
}

/** Describes this machine now; `end` of the load average is filled in by {@link finishMachine}. */
export function describeMachine(codeServerVersion: string): Machine {
  const chromium = spawnSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' });
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    chromium: chromium.status === 0 ? chromium.stdout.trim() : null,
    codeServer: codeServerVersion,
    loadAverage: { start: Math.round((os.loadavg()[0] ?? 0) * 100) / 100, end: null },
  };
}

/** Records the load average at the end of the run. */
export function finishMachine(machine: Machine): void {
  machine.loadAverage.end = Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
}

/** One line: `2 cores (Intel Xeon …), 23 GiB, Linux 6.1, Node v20.20.2, …`. */
export function machineLine(machine: Machine): string {
  return [
    `${machine.cores} cores (${machine.cpu})`,
    `${machine.memoryGiB} GiB`,
    machine.os,
    `Node ${machine.node}`,
    `code-server ${machine.codeServer}`,
    machine.chromium ?? 'Chromium: not found',
    `load average ${machine.loadAverage.start} at the start, ${machine.loadAverage.end ?? '?'} at the end`,
  ].join(', ');
}
