/**
 * A packages/devnet server in this process on 127.0.0.1: on a free port by default, so every
 * jest worker (or test file) can have its own, or on a given port.
 */
import type { DevnetServerOptions } from '@l2wallet/devnet';

import { LOOPBACK } from '../constants';
import { profiled } from '../profile';

/** The members of @l2wallet/devnet's DevnetServer every caller gets (pass the full type as T). */
export interface DevnetLike {
  url: string;
  rpcUrl: string;
  port: number;
  close(): Promise<void>;
}

/** The devnet server's options, on 127.0.0.1 always. */
export type StartDevnetOptions = Omit<DevnetServerOptions, 'host'> & {
  /** How long to retry a given port that is still taken (default 30 s). */
  portWaitMs?: number;
};

/**
 * Starts the devnet. It is loaded from @l2wallet/devnet at call time (jest maps it to the
 * package's source; scripts get its dist); only its types are the testkit's. Returns the server
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
