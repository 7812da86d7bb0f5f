/**
 * The stores of a config's ledger: its key registry and its ledger, over one SQLite file or one
 * Redis (or Redis Cluster) connection. For `serve`: a SQLite file is locked to this process (a
 * second `serve` on it refuses to start), and a Redis without persistence is warned about.
 */
import type { KeyRegistry } from '../auth/registry';
import type { Ledger } from '../credits/ledger';
import type { RefusalStore } from '../credits/refusals';
import type { LedgerConfig } from '../config';

export interface Stores {
  keys: KeyRegistry;
  ledger: Ledger;
  /** Refusals counted per key, day and cause. */
  refusals: RefusalStore;
  /** Writes what is pending, then closes the file or the connection (and frees the lock). */
  close(): Promise<void>;
}

export async function openStores(
  config: LedgerConfig,
  /** `now`: the clock debits are stamped with (tests move it). */
  options: { serving?: boolean; now?: () => number } = {},
): Promise<Stores> {
  if ('redis' in config || 'redisCluster' in config) {
    const [
      { RedisConnection },
      { RedisKeyRegistry },
      { RedisLedger },
      { LeasedLedger },
      { RedisRefusals },
    ] = await Promise.all([
      import('./redis/connection'),
      import('./redis/keys'),
      import('./redis/ledger'),
      import('../credits/leases'),
      import('./redis/refusals'),
    ]);
    const target = 'redis' in config ? config.redis : { cluster: config.redisCluster };
    const connection = await RedisConnection.open(target, { warnIfVolatile: options.serving });
    const redisLedger = new RedisLedger(connection);
    // Busy keys are debited from leases of the shared ledger: no round trip per call.
    const ledger = new LeasedLedger(redisLedger, redisLedger, options.now);
    return {
      keys: new RedisKeyRegistry(connection),
      ledger,
      refusals: new RedisRefusals(connection),
      async close() {
        await ledger.close(); // unused leases go back
        await redisLedger.flushAll();
        await connection.close();
      },
    };
  }
  const [
    { openDatabase },
    { FileLock },
    { SqliteKeyRegistry },
    { SqliteLedger },
    { SqliteRefusals },
  ] = await Promise.all([
    import('./sqlite/database'),
    import('./sqlite/lock'),
    import('./sqlite/keys'),
    import('./sqlite/ledger'),
    import('./sqlite/refusals'),
  ]);
  const lock = new FileLock(config.sqlite);
  const db = openDatabase(config.sqlite);
  const close = () => {
    db.close();
    lock.release();
  };
  try {
    if (options.serving) lock.take();
    const ledger = new SqliteLedger(db, config.sqlite);
    return {
      keys: new SqliteKeyRegistry(db),
      ledger,
      refusals: new SqliteRefusals(db),
      async close() {
        ledger.flushAll();
        close();
      },
    };
  } catch (error) {
    close();
    throw error;
  }
}
