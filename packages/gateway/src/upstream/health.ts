/**
 * GET /healthz (and /health): per chain, its head and whether it has a healthy upstream; per
 * upstream (labelled chain/position, never by URL), whether it is healthy or in backoff after a
 * failure (refused, unavailable, timeout) and for how long, and the latest block it reported.
 */
import type { Router } from './router';

export function health(router: Router) {
  const chains = router.chains.map((chain) => ({
    name: chain.name,
    healthy: chain.healthy,
    head: chain.head.number === undefined ? null : Number(chain.head.number),
    reorgs: chain.head.reorgs,
    upstreams: chain.upstreams.map((u) => ({
      upstream: u.label,
      ...u.status(),
      head: u.head === undefined ? null : Number(u.head.number),
      atHead: chain.head.atHead(u),
    })),
  }));
  return { status: chains.every((c) => c.healthy) ? 'ok' : 'degraded', chains };
}
