/** Starts a gateway: its stores, chains with their upstreams, HTTP and WebSocket. */
import type { AddressInfo } from 'node:net';
import { applyConfigKeys } from '../auth/controls';
import { checkConfig, type GatewayConfig } from '../config';
import { LeasedLedger } from '../credits/leases';
import { Gateway } from '../gateway';
import { RESPONSE_LIMIT } from '../jsonrpc/errors';
import { Metrics } from '../metrics/metrics';
import { openStores } from '../stores/open';
import { Chain } from '../upstream/chain';
import { Router } from '../upstream/router';
import { buildHttp } from './http';
import { attachWebSocket } from './ws/upgrade';

export interface RunningGateway {
  url: string;
  port: number;
  gateway: Gateway;
  close(): Promise<void>;
}

export async function startGateway(
  config: GatewayConfig,
  /** `now`: the clock the ledger's days and seconds are read from (tests move it). */
  options: { now?: () => number } = {},
): Promise<RunningGateway> {
  checkConfig(config);
  const metrics = new Metrics();
  const stores = await openStores(config.ledger, { serving: true, now: options.now });
  const { ledger } = stores;
  try {
    await applyConfigKeys(stores.keys, config.keys ?? []);
  } catch (error) {
    await stores.close();
    throw error;
  }
  if (ledger instanceof LeasedLedger) {
    for (const via of ['lease', 'ledger'] as const) {
      metrics.gauge(
        'gateway_ledger_debits_total',
        'Debits taken from a lease in this process (lease) or made in the shared ledger (ledger).',
        `via="${via}"`,
        () => ledger.debits[via === 'lease' ? 'leased' : 'ledger'],
        'counter',
      );
    }
  }
  const router = Router.from(config.chains, (chain) => new Chain(chain, config, metrics));
  for (const chain of router.chains) chain.start(config.healthIntervalMs ?? 1000);
  const gateway = new Gateway(
    stores.keys,
    stores.ledger,
    router,
    metrics,
    options.now ?? Date.now,
    config.responseLimitBytes ?? RESPONSE_LIMIT,
    stores.refusals,
  );
  const slowClientMs = config.slowClientMs ?? 30_000;
  const http = buildHttp(gateway, { slowClientMs });
  const ws = attachWebSocket(http.server, gateway, { slowClientMs });
  await new Promise<void>((resolve, reject) => {
    http.server.once('error', reject);
    http.server.listen(config.listen.port, config.listen.host, () => {
      http.server.off('error', reject);
      resolve();
    });
  });
  const { port } = http.server.address() as AddressInfo;
  return {
    url: `http://${config.listen.host}:${port}`,
    port,
    gateway,
    async close() {
      await ws.close();
      await http.close();
      await Promise.all(router.chains.map((c) => c.close()));
      await gateway.close();
      await stores.close();
    },
  };
}
