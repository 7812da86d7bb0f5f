/**
 * Credits-per-second limit for one process: a fixed one-second window per key. (The Redis store
 * keeps the same window in Redis, shared by every gateway instance.)
 */
import { epochSecond } from './ledger';

export class PerSecondWindow {
  private readonly windows = new Map<string, { second: number; used: number }>();

  /** Takes `cost` from this second's allowance, or returns false and takes nothing. */
  take(key: string, cost: number, perSecond: number, nowMs: number): boolean {
    const second = epochSecond(nowMs);
    let window = this.windows.get(key);
    if (!window || window.second !== second) {
      if (this.windows.size > 10_000) this.windows.clear(); // stale windows of idle keys
      window = { second, used: 0 };
      this.windows.set(key, window);
    }
    if (window.used + cost > perSecond) return false;
    window.used += cost;
    return true;
  }
}
