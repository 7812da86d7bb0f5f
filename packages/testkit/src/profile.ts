/**
 * Where a test run's time goes, for `npm run test:profile` (scripts/test-profile.mjs). That script
 * sets L2_TEST_PROFILE to a folder; the test environments (per file), the transform (per
 * transpiled module) and the testkit's services then append one JSON line per event to it.
 * Without L2_TEST_PROFILE every function here does nothing but run what it wraps.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Linux's USER_HZ: /proc counts CPU time in ticks of 1/100 s. */
const TICKS_PER_SECOND = 100;

export interface ProfileEvent {
  /** 'file', 'transpile', 'snap-install', 'service-start', 'service-life', 'command', ... */
  kind: string;
  name: string;
  /** Wall seconds. */
  wall?: number;
  /** CPU seconds (user + system). */
  cpu?: number;
  /** The test file it happened in (set by the test environments). */
  file?: string;
  [extra: string]: unknown;
}

export function profiling(): boolean {
  return Boolean(process.env.L2_TEST_PROFILE);
}

/** Appends one event to the profile (a line under 4 KB: one atomic append per worker). */
export function profileEvent(event: ProfileEvent): void {
  const dir = process.env.L2_TEST_PROFILE;
  if (!dir) return;
  const line = JSON.stringify({
    file: process.env.L2_TEST_PROFILE_FILE,
    ...event,
    pid: process.pid,
  });
  appendFileSync(path.join(dir, 'events.jsonl'), `${line}\n`);
}

/** This process's own CPU seconds so far (every thread). */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function statFields(pid: number | 'self'): number[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may hold spaces), from field 3 on.
    return stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
  } catch {
    return undefined;
  }
}

/** CPU seconds of this process's children that have exited and been waited for. */
export function reapedChildrenCpuSeconds(): number {
  const fields = statFields('self');
  // cutime and cstime are stat fields 16 and 17 (index 13 and 14 from field 3).
  return fields ? (fields[13] + fields[14]) / TICKS_PER_SECOND : 0;
}

/** CPU seconds of a live process and its reaped children (0 when it is gone). */
export function processCpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return fields ? (fields[11] + fields[12] + fields[13] + fields[14]) / TICKS_PER_SECOND : 0;
}

/** Runs `work` and records its wall time and this process's CPU during it. */
export async function profiled<T>(kind: string, name: string, work: () => Promise<T>): Promise<T> {
  if (!profiling()) return work();
  const wall = Date.now();
  const cpu = ownCpuSeconds();
  try {
    return await work();
  } finally {
    profileEvent({ kind, name, wall: (Date.now() - wall) / 1000, cpu: ownCpuSeconds() - cpu });
  }
}
