import { useCallback, useState } from 'react';
import { errorOutcome, okOutcome, type Outcome } from '../utils/outcome';

export interface Panel {
  /** The action under way in this panel (its own; other panels stay usable), or null. */
  busy: string | null;
  /** What the panel's last action gave: shown in the panel's ResultView. */
  outcome: Outcome | null;
  /** Runs `task` as `action`: the result is the outcome (none when undefined), or the error. */
  run(action: string, task: () => Promise<unknown>): Promise<void>;
}

/** A panel's own busy state and last outcome: one action at a time per panel. */
export function usePanel(): Panel {
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const run = useCallback(async (action: string, task: () => Promise<unknown>) => {
    setBusy(action);
    setOutcome(null);
    try {
      const result = await task();
      setOutcome(result === undefined ? null : okOutcome(result));
    } catch (error) {
      setOutcome(errorOutcome(error));
    } finally {
      setBusy(null);
    }
  }, []);
  return { busy, outcome, run };
}
