/**
 * The paymaster's counters, rendered as Prometheus text on GET /metrics: fees received (what the
 * relayer kept, per token), gas spent (the actual fees of its transactions), refusals by code and
 * reason, executions by outcome. The relayer's balances are read from the node at each scrape.
 */
type Labels = Record<string, string>;

const labelText = (labels: Labels) => {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return `{${entries.map(([k, v]) => `${k}="${escape(v)}"`).join(',')}}`;
};

class Counter {
  private readonly values = new Map<string, { labels: Labels; value: bigint }>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  add(labels: Labels, by: bigint | number = 1): void {
    const key = labelText(labels);
    const entry = this.values.get(key) ?? { labels, value: 0n };
    entry.value += BigInt(by);
    this.values.set(key, entry);
  }

  get(labels: Labels): bigint {
    return this.values.get(labelText(labels))?.value ?? 0n;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values()) {
      lines.push(`${this.name}${labelText(labels)} ${value.toString()}`);
    }
    return lines.join('\n');
  }
}

export class Metrics {
  readonly feesReceived = new Counter(
    'paymaster_fees_received_total',
    "fees the relayer kept, in the token's smallest unit",
  );
  readonly gasSpent = new Counter(
    'paymaster_gas_spent_fri_total',
    "actual fees of the relayer's transactions, in FRI",
  );
  readonly refusals = new Counter('paymaster_refusals_total', 'refused requests by code');
  readonly executions = new Counter(
    'paymaster_executions_total',
    'executions by outcome: submitted, succeeded, reverted, uncertain, unconfirmed',
  );

  /** The text of GET /metrics, with the relayer's balances read just now. */
  render(balances: { token: string; amount: bigint }[], belowFloor: boolean): string {
    const balance = [
      '# HELP paymaster_relayer_balance the relayer account balance, in the token smallest unit',
      '# TYPE paymaster_relayer_balance gauge',
      ...balances.map(
        (b) => `paymaster_relayer_balance${labelText({ token: b.token })} ${b.amount.toString()}`,
      ),
      '# HELP paymaster_relayer_below_floor 1 while the relayer STRK balance is below its floor',
      '# TYPE paymaster_relayer_below_floor gauge',
      `paymaster_relayer_below_floor ${belowFloor ? 1 : 0}`,
    ].join('\n');
    const counters = [this.feesReceived, this.gasSpent, this.refusals, this.executions];
    return `${[balance, ...counters.map((c) => c.render())].join('\n')}\n`;
  }
}
