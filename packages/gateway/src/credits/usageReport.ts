/** The usage report of GET [/<chain>]/v3/<KEY>/usage: a key's ledger usage, shaped for clients. */
import { REFUSAL_CAUSES, type RefusalCause } from '../auth/access';
import { type Controls, controlsOf } from '../auth/controls';
import type { KeyRecord } from '../auth/keys';
import { epochMinute, type Usage } from './ledger';
import type { RefusalCounts } from './refusals';

export interface UsageReport {
  total: number;
  limit: number;
  left: number;
  creditsPerSecond: number;
  plan: string;
  methods: Record<string, number>;
  /** Today's refused requests and calls by cause (never charged). */
  refused: Record<RefusalCause, number>;
  /** The key's access controls (never its secret). */
  controls: Controls;
  lastHour: { minute: string; credits: number }[];
  resetsAt: string;
}

/**
 * Today's total and methods, what is left (less what other instances' leases still hold), the
 * last hour by minute and the next reset (00:00 UTC), as of `nowMs`.
 */
export function usageReportOf(
  key: KeyRecord,
  used: Usage,
  refused: RefusalCounts,
  nowMs: number,
): UsageReport {
  const currentMinute = epochMinute(nowMs);
  return {
    total: used.total,
    limit: key.dailyCredits,
    left: Math.max(0, key.dailyCredits - used.total - (used.reserved ?? 0)),
    creditsPerSecond: key.creditsPerSecond,
    plan: key.plan,
    methods: used.methods,
    refused: refusedByCause(refused),
    controls: controlsOf(key),
    lastHour: used.lastHour.map((credits, i) => ({
      minute: new Date((currentMinute - 59 + i) * 60_000).toISOString(),
      credits,
    })),
    resetsAt: new Date((Math.floor(nowMs / 86_400_000) + 1) * 86_400_000).toISOString(),
  };
}

/** Every cause, 0 when none was refused for it. */
export function refusedByCause(counts: RefusalCounts): Record<RefusalCause, number> {
  return Object.fromEntries(REFUSAL_CAUSES.map((c) => [c, counts[c] ?? 0])) as Record<
    RefusalCause,
    number
  >;
}
