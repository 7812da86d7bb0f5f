/** GET /healthz: each chain is healthy when at least one of its upstreams passed its last check. */
import type { Router } from '../upstream/router';

export function health(router: Router) {
  const chains = router.chains.map((chain) => ({
    name: chain.name,
    healthy: chain.healthy,
    upstreams: chain.upstreams.map((u) => ({ upstream: u.label, healthy: u.healthy })),
  }));
  return { status: chains.every((c) => c.healthy) ? 'ok' : 'degraded', chains };
}
