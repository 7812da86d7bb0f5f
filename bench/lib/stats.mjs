// Shared by the benches: percentiles, latency runs and the machine line of a table.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

/** The p-th percentile (nearest rank) of ascending `sorted`. */
export function percentile(sorted, p) {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

/**
 * Sends `warmup` requests untimed, then `calls` timed ones (building each one's params is not
 * timed); returns p50 and p95 in milliseconds.
 */
export async function latency(makeParams, send, { warmup = 0, calls }) {
  for (let index = 0; index < warmup; index += 1) {
    await send(makeParams(index));
  }
  const times = [];
  for (let index = 0; index < calls; index += 1) {
    const params = makeParams(warmup + index);
    const start = performance.now();
    await send(params);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** Core count and CPU model, as the tables note them. */
export function machine() {
  return `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'})`;
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux; NaN elsewhere).
 * Unlike wall time, other processes on a shared machine do not inflate it.
 */
export function processCpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ ticks
  } catch {
    return NaN;
  }
}
