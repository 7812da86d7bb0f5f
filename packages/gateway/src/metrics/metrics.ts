/**
 * Prometheus metrics, in memory and written out as text. Labels are method names, HTTP statuses
 * and upstream labels (chain/position): never a key, a secret or an upstream URL.
 */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  private readonly cacheHits = new Map<string, number>();
  private readonly mergedCalls = new Map<string, number>();
  private readonly gauges: {
    name: string;
    help: string;
    labels: string;
    read: () => number;
    type: 'gauge' | 'counter';
  }[] = [];
  private readonly upstreamFailures = new Map<string, number>();
  private readonly latency = new Map<string, { buckets: number[]; sum: number; count: number }>();

  // Counters keyed by method, then status: no label string is built per call.
  private readonly byStatus = new Map<string, Map<number, number>>();
  private readonly creditsByMethod = new Map<string, number>();

  request(method: string, status: number): void {
    let statuses = this.byStatus.get(method);
    if (!statuses) this.byStatus.set(method, (statuses = new Map()));
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }

  charged(method: string, credits: number): void {
    this.creditsByMethod.set(method, (this.creditsByMethod.get(method) ?? 0) + credits);
  }

  cacheHit(method: string): void {
    this.cacheHits.set(method, (this.cacheHits.get(method) ?? 0) + 1);
  }

  /** A call that joined an identical one in flight instead of going upstream. */
  merged(method: string): void {
    this.mergedCalls.set(method, (this.mergedCalls.get(method) ?? 0) + 1);
  }

  /** A value read when /metrics is rendered (cache size, say; or a count kept elsewhere). */
  gauge(
    name: string,
    help: string,
    labels: string,
    read: () => number,
    type: 'gauge' | 'counter' = 'gauge',
  ): void {
    this.gauges.push({ name, help, labels, read, type });
  }

  /** An upstream call that failed (refused by the provider, unavailable, or timed out). */
  upstreamFailure(upstream: string, reason: string): void {
    const labels = `upstream="${upstream}",reason="${reason}"`;
    this.upstreamFailures.set(labels, (this.upstreamFailures.get(labels) ?? 0) + 1);
  }

  upstreamLatency(upstream: string, seconds: number): void {
    let h = this.latency.get(upstream);
    if (!h) {
      h = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.latency.set(upstream, h);
    }
    // One bucket per observation; render() sums them into Prometheus' cumulative buckets.
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]) i++;
    if (i < BUCKETS.length) h.buckets[i] += 1;
    h.sum += seconds;
    h.count += 1;
  }

  render(): string {
    const lines: string[] = [];
    const counter = (name: string, help: string, values: Map<string, number>) => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      for (const [labels, value] of values) lines.push(`${name}{${labels}} ${value}`);
    };
    const requests = new Map<string, number>();
    for (const [method, statuses] of this.byStatus) {
      for (const [status, count] of statuses) {
        requests.set(`method="${method}",status="${status}"`, count);
      }
    }
    const credits = new Map(
      [...this.creditsByMethod].map(([method, count]) => [`method="${method}"`, count]),
    );
    counter(
      'gateway_requests_total',
      'JSON-RPC calls answered, by method and HTTP status.',
      requests,
    );
    counter('gateway_credits_total', 'Credits charged, by method.', credits);
    counter(
      'gateway_cache_hits_total',
      'Calls answered from the answer cache.',
      new Map([...this.cacheHits].map(([method, count]) => [`method="${method}"`, count])),
    );
    counter(
      'gateway_merged_total',
      'Calls that shared an identical upstream request already in flight.',
      new Map([...this.mergedCalls].map(([method, count]) => [`method="${method}"`, count])),
    );
    counter(
      'gateway_upstream_failures_total',
      'Upstream calls that failed, by reason: refused (a provider 401/403/429 or limit error), unavailable, timeout.',
      this.upstreamFailures,
    );
    let lastGauge = '';
    for (const g of [...this.gauges].sort((a, b) => a.name.localeCompare(b.name))) {
      if (g.name !== lastGauge) {
        lines.push(`# HELP ${g.name} ${g.help}`, `# TYPE ${g.name} ${g.type}`);
      }
      lastGauge = g.name;
      lines.push(`${g.name}{${g.labels}} ${g.read()}`);
    }
    const name = 'gateway_upstream_latency_seconds';
    lines.push(`# HELP ${name} Upstream call latency.`, `# TYPE ${name} histogram`);
    for (const [upstream, h] of this.latency) {
      let cumulative = 0;
      BUCKETS.forEach((le, i) => {
        cumulative += h.buckets[i];
        lines.push(`${name}_bucket{upstream="${upstream}",le="${le}"} ${cumulative}`);
      });
      lines.push(`${name}_bucket{upstream="${upstream}",le="+Inf"} ${h.count}`);
      lines.push(`${name}_sum{upstream="${upstream}"} ${h.sum}`);
      lines.push(`${name}_count{upstream="${upstream}"} ${h.count}`);
    }
    return lines.join('\n') + '\n';
  }
}
