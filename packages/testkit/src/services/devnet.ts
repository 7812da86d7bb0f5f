/**
 * A packages/devnet server in this process on 127.0.0.1: on a free port by default, so every
 * jest worker (or test file) can have its own, or on a given port.
 */
import { LOOPBACK } from '../constants';
import { profiled } from '../profile';

/** The members of @l2wallet/devnet's DevnetServer every caller gets (pass the full type as T). */
export interface DevnetLike {
  url: string;
  rpcUrl: string;
  port: number;
  close(): Promise<void>;
}

export interface StartDevnetOptions {
  /** 0 or absent: a free port. */
  port?: number;
  seed?: number;
  accounts?: number;
  /** Milliseconds between blocks; 0 (default) closes a block per transaction. */
  blockTime?: number;
  preconfirmDelayMs?: number;
  chainId?: string;
  initialBalance?: bigint;
  rpcVersion?: string;
  startTime?: number;
  /** The Starknet version blocks report (default 0.14.1). */
  starknetVersion?: string;
  /** How long to retry a given port that is still taken (default 30 s). */
  portWaitMs?: number;
}

/**
 * Starts the devnet. It is loaded from @l2wallet/devnet at call time (jest maps it to the
 * package's source; scripts get its dist), so the testkit builds without it. Returns the server
 * (type it with `startDevnet<DevnetServer>()`) with `stop()`, the same as close().
 */
export async function startDevnet<T extends DevnetLike = DevnetLike>(
  options: StartDevnetOptions = {},
): Promise<T & { stop(): Promise<void> }> {
  const { portWaitMs = 30_000, ...rest } = options;
  const { startDevnetServer } = require('@l2wallet/devnet') as {
    startDevnetServer(options: Record<string, unknown>): Promise<T>;
  };
  const deadline = Date.now() + portWaitMs;
  for (;;) {
    try {
      const server = await profiled('service-start', 'devnet', () =>
        startDevnetServer({ ...rest, host: LOOPBACK, port: rest.port ?? 0 }),
      );
      return Object.assign(server, { stop: () => server.close() });
    } catch (error) {
      // A port given by the caller may still be held for a moment by the previous owner.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}
