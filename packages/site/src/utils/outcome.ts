/** What an action gave, as a panel shows it: a value, or an error with its name and code. */
export type Outcome =
  | { kind: 'ok'; value: unknown; at: number }
  | { kind: 'error'; name: string; message: string; code?: number; at: number };

export function errorOutcome(error: unknown): Outcome {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      kind: 'error',
      name: error.name,
      message: error.message,
      code: typeof code === 'number' ? code : undefined,
      at: Date.now(),
    };
  }
  return { kind: 'error', name: 'Error', message: String(error), at: Date.now() };
}

export function okOutcome(value: unknown): Outcome {
  return { kind: 'ok', value, at: Date.now() };
}

/** The most recent of a panel's outcomes (its own action's, a background read's). */
export function newest(...outcomes: (Outcome | null)[]): Outcome | null {
  let latest: Outcome | null = null;
  for (const outcome of outcomes)
    if (outcome && (!latest || outcome.at >= latest.at)) latest = outcome;
  return latest;
}

export function formatValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** A long hex value as 0x1234…cdef. */
export function short(value: string, keep = 6): string {
  return value.length > 2 * keep + 3 ? `${value.slice(0, keep + 2)}…${value.slice(-keep)}` : value;
}
