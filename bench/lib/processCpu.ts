// CPU time of the processes a benchmark started (this runner's descendants: sandbox, code-server
// and its extension host, Chromium), by role, read from /proc; for explaining where a figure's time
// went on a machine whose two cores are shared.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

export type Role = 'extension host' | 'code-server' | 'browser' | 'sandbox' | 'finished children' | 'other';
/** CPU milliseconds by role. */
export type CpuByRole = Partial<Record<Role, number>>;

const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

interface Stat {
  ppid: number;
  /** user + system, ms */
  cpuMs: number;
  /** of children that ended and were waited for, ms */
  childrenMs: number;
}

function readStat(pid: number): Stat | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: split after its closing one.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ms = (i: number): number => (Number(fields[i]) / ticksPerSecond) * 1000;
    return { ppid: Number(fields[1]), cpuMs: ms(11) + ms(12), childrenMs: ms(13) + ms(14) };
  } catch {
    return undefined;
  }
}

function roleOf(pid: number): Role {
  let command = '';
  try {
    command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return 'other';
  }
  if (command.includes('--type=extensionHost')) return 'extension host';
  if (command.includes('sandbox.js')) return 'sandbox';
  if (command.includes('chromium') || command.includes('chrome')) return 'browser';
  if (command.includes('code-server')) return 'code-server';
  return 'other';
}

/** CPU used so far by every descendant of this process, by role (finished children: what this process waited for). */
export function cpuSnapshot(): CpuByRole {
  const parents = new Map<number, number>();
  const stats = new Map<number, Stat>();
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = readStat(pid);
    if (stat) {
      parents.set(pid, stat.ppid);
      stats.set(pid, stat);
    }
  }
  const isOurs = (pid: number): boolean => {
    for (let p = parents.get(pid), hops = 0; p !== undefined && hops < 64; p = parents.get(p), hops++) if (p === process.pid) return true;
    return false;
  };
  const result: CpuByRole = { 'finished children': stats.get(process.pid)?.childrenMs ?? 0 };
  for (const [pid, stat] of stats) {
    if (!isOurs(pid)) continue;
    const role = roleOf(pid);
    result[role] = (result[role] ?? 0) + stat.cpuMs;
  }
  return result;
}

/** CPU used between two snapshots, by role (roles that used none left out). */
export function cpuBetween(before: CpuByRole, after: CpuByRole): CpuByRole {
  const used: CpuByRole = {};
  for (const role of Object.keys(after) as Role[]) {
    const ms = (after[role] ?? 0) - (before[role] ?? 0);
    if (ms > 0) used[role] = ms;
  }
  return used;
}
