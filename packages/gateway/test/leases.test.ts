/**
 * The lease state machine of src/credits/leases.ts against a fake store whose answers the test
 * gives one at a time, on a fake clock: store steps that race in a loaded process, made
 * deterministic. What a crash would keep is what the store holds for this instance minus what
 * its answered calls used: at most the lease in hand (docs/architecture/gateway.md#leases).
 */
import { type KeyRecord, newKey } from '../src/auth/keys';
import { ALREADY_DURABLE, type DebitOutcome, type Ledger } from '../src/credits/ledger';
import { LeasedLedger } from '../src/credits/leases';
import {
  type LeaseGrant,
  type LeaseRequest,
  type LeaseStore,
  maxLease,
  type Settlement,
} from '../src/credits/leaseStore';

/** A store step the test answers: the store grants what was asked, as Redis would. */
interface Step {
  request: LeaseRequest | undefined;
  settle: Settlement | undefined;
  answer(): void;
}

/** A shared ledger with one instance: what it charged, and what this instance holds leased. */
class FakeStore implements LeaseStore, Ledger {
  charged = 0;
  reserved = 0;
  /** Steps not yet answered (manual), or every step answered at once (auto). */
  readonly steps: Step[] = [];
  auto = true;

  lease(
    _key: KeyRecord,
    request: LeaseRequest | undefined,
    settle: Settlement | undefined,
  ): Promise<LeaseGrant> {
    return new Promise((resolve) => {
      const answer = () => {
        if (settle) {
          for (const credits of settle.methods.values()) this.charged += credits;
          this.reserved = 0;
        }
        const granted = request?.want ?? 0;
        this.reserved += granted;
        resolve({ granted, dayLeft: 1e12, windowLeft: 1e9 });
      };
      if (this.auto) answer();
      else this.steps.push({ request, settle, answer });
    });
  }
  liveLeases(): Promise<number> {
    return Promise.resolve(0);
  }
  onBack(): void {}
  debit(_key: KeyRecord, _method: string, cost: number): Promise<DebitOutcome> {
    this.charged += cost;
    return Promise.resolve('ok');
  }
  durable() {
    return ALREADY_DURABLE;
  }
  refund(): Promise<void> {
    return Promise.reject(new Error('not in these tests'));
  }
  usage(): Promise<never> {
    return Promise.reject(new Error('not in these tests'));
  }
}

/** Lets every promise chain that can go on run (timers are fake: only the clock moves them). */
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('leases against a fake store', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('calls that waited while a lease was asked ahead take from it: no second grant for them', async () => {
    const store = new FakeStore();
    let clock = Date.parse('2026-03-01T12:00:00.900Z');
    const ledger = new LeasedLedger(store, store, () => clock);
    const { record: key } = newKey({ plan: 'team', creditsPerSecond: 1_000_000 });
    let [asked, ok] = [0, 0];
    const debit = (n: number) =>
      Array.from({ length: n }, () => {
        asked += 1;
        return ledger.debit(key, 'eth_call', 80, clock).then((outcome) => {
          if (outcome === 'ok') ok += 1;
        });
      });
    /** What a kill -9 now would keep: credit held for this instance that no answer used. */
    const unused = () => store.reserved - (ok * 80 - store.charged);
    // A busy second: 800 calls (leased once the key is busy), the store answering at once.
    await Promise.all(debit(800));
    expect(ok).toBe(800);
    // The next second: its first call asks for a lease (at this rate, the largest).
    clock += 200;
    store.auto = false;
    const calls = debit(1);
    expect(store.steps).toHaveLength(1);
    store.steps.shift()!.answer();
    await flush();
    expect(store.reserved).toBe(maxLease(key));
    // Calls take from it until under a quarter is left, and a lease is asked ahead ...
    while (store.steps.length === 0 && asked < 2000) calls.push(...debit(1));
    expect(store.steps).toHaveLength(1);
    // ... and go on with the rest while the store is slow to answer, then wait.
    calls.push(...debit(200));
    await flush();
    expect(ok).toBeLessThan(asked);
    // The lease asked ahead comes: the waiting calls take from it (the store answers any other
    // step it is asked).
    store.steps.shift()!.answer();
    await flush();
    let more = 0;
    for (; store.steps.length > 0; more += 1) {
      store.steps.shift()!.answer();
      await flush();
    }
    await Promise.all(calls);
    expect(ok).toBe(asked);
    // Killed now: at most the lease in hand is kept (its remainder when the lease was asked
    // ahead, under a quarter, and that lease). Nearly two leases when the waiting calls asked
    // for another grant on top of the one that came.
    expect(unused()).toBeGreaterThan(0);
    expect(unused()).toBeLessThanOrEqual(1.25 * maxLease(key));
    expect(more).toBe(0);
    // A clean close gives every unused credit back.
    store.auto = true;
    await ledger.close();
    expect(store.reserved).toBe(0);
    expect(store.charged).toBe(ok * 80);
  });
});
