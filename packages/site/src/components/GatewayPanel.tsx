/**
 * The Gateway page: paste an API key of packages/gateway, see today's credits (used, left, per
 * method, the last hour per minute) from the free GET /v3/<KEY>/usage, and try each of the six
 * methods (docs/interface/gateway.md#methods), with the credits each answer cost (its
 * x-credits-cost header). It shows the key's access controls (secret, JWT, allowlists) and today's
 * refusals by cause, from the same usage answer (never a secret). Usage is split by chain: the EVM
 * chain's methods and the Starknet chain's (`starknet_*`), one key serving both. The gateway URL
 * and key are the site config's (?gateway= and ?key=, else what `npm start` built the site with:
 * its demo gateway and key).
 */
import React, { useCallback, useState } from 'react';
// Only the gateway's hook: the gateway page bundles nothing of the snap client.
import { useGateway, type GatewayAnswer, type Usage } from '../hooks/useGateway';

const LISTS = [
  ['origins', 'Origins'],
  ['userAgents', 'User-Agents'],
  ['contracts', 'Contracts'],
  ['methods', 'Methods'],
] as const;

/** The key's controls as the usage answer lists them, and what they refused today. */
function KeyControls({ usage }: { usage: Usage }) {
  const { controls, refused } = usage;
  if (!controls) return null;
  const { secret, jwt, allow } = controls;
  return (
    <table className="small" data-testid="gateway-controls">
      <tbody>
        <tr>
          <th>Secret</th>
          <td>
            {secret.required ? 'required' : secret.set ? 'set, lifts the allowlists' : 'none'}
          </td>
        </tr>
        <tr>
          <th>JWT</th>
          <td>
            {jwt.required ? 'required' : 'optional'}
            {jwt.publicKeys.length > 0 &&
              `: ${jwt.publicKeys.map((k) => `${k.name} (${k.alg})`).join(', ')}`}
          </td>
        </tr>
        {LISTS.map(([type, label]) => (
          <tr key={type}>
            <th>{label}</th>
            <td className="mono">{allow[type].length ? allow[type].join(', ') : 'any'}</td>
          </tr>
        ))}
        {refused && (
          <tr>
            <th>Refused today</th>
            <td data-testid="gateway-refused">
              {Object.entries(refused)
                .map(([cause, n]) => `${cause} ${n}`)
                .join(', ')}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

type Sample = { blockHash: string; blockNumber: string; txHash: string; address: string };

const GATEWAY_METHODS: { method: string; params: (s: Sample) => unknown[] }[] = [
  { method: 'eth_getTransactionByBlockNumberAndIndex', params: (s) => [s.blockNumber, '0x0'] },
  { method: 'eth_getTransactionByBlockHashAndIndex', params: (s) => [s.blockHash, '0x0'] },
  { method: 'eth_getBlockByHash', params: (s) => [s.blockHash, false] },
  { method: 'eth_call', params: (s) => [{ to: s.address, data: '0x' }, 'latest'] },
  { method: 'eth_getTransactionReceipt', params: (s) => [s.txHash] },
  { method: 'eth_getProof', params: (s) => [s.address, ['0x0'], 'latest'] },
];

/** Today's credits per method, grouped by the chain that serves the method. */
function byChain(methods: Record<string, number>) {
  const chains = [
    { name: 'EVM chain', id: 'evm', methods: [] as [string, number][] },
    { name: 'Starknet chain', id: 'starknet', methods: [] as [string, number][] },
  ];
  for (const entry of Object.entries(methods).sort((a, b) => b[1] - a[1])) {
    chains[entry[0].startsWith('starknet_') ? 1 : 0].methods.push(entry);
  }
  return chains.map((c) => ({ ...c, total: c.methods.reduce((sum, [, n]) => sum + n, 0) }));
}

function HourChart({ minutes }: { minutes: Usage['lastHour'] }) {
  const max = Math.max(1, ...minutes.map((m) => m.credits));
  return (
    <svg
      viewBox="0 0 600 120"
      width="100%"
      height="120"
      role="img"
      aria-label="credits per minute, last hour"
      data-testid="gateway-chart"
    >
      {minutes.map((m, i) => {
        const height = (m.credits / max) * 110;
        return (
          <rect
            key={m.minute}
            x={i * 10}
            y={115 - height}
            width={8}
            height={height}
            fill="var(--navy-2)"
          >
            <title>{`${m.minute.slice(11, 16)} UTC: ${m.credits} credits`}</title>
          </rect>
        );
      })}
      <line x1="0" y1="115" x2="600" y2="115" stroke="var(--border)" />
    </svg>
  );
}

export function GatewayPanel() {
  const { gateway, setGateway, key, setKey, ready, usage, error, setError, rpc, loadUsage } =
    useGateway();
  const [answer, setAnswer] = useState<({ method: string } & GatewayAnswer) | null>(null);
  const [sample, setSample] = useState<Sample | null>(null);

  const tryMethod = useCallback(
    async (index: number) => {
      setError('');
      try {
        let s = sample;
        if (!s) {
          // Real hashes to call with: the latest block that holds a transaction.
          const latest = JSON.parse((await rpc('eth_getBlockByNumber', ['latest', true])).text);
          const block = latest.result;
          const tx = block?.transactions?.[0];
          if (!tx) throw new Error(latest.error?.message ?? 'the latest block has no transaction');
          s = {
            blockHash: block.hash,
            blockNumber: block.number,
            txHash: tx.hash,
            address: tx.to ?? tx.from,
          };
          setSample(s);
        }
        const { method, params } = GATEWAY_METHODS[index];
        setAnswer({ method, ...(await rpc(method, params(s))) });
        await loadUsage();
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    },
    [sample, rpc, loadUsage, setError],
  );

  return (
    <main className="content">
      <section className="card panel" data-testid="gateway-key" data-ready={ready}>
        <header className="card-head">
          <h2>API key</h2>
        </header>
        <label className="small">
          Gateway{' '}
          <input
            className="mono"
            value={gateway}
            onChange={(e) => setGateway(e.target.value)}
            size={30}
          />
        </label>{' '}
        <label className="small">
          Key{' '}
          <input
            className="mono"
            data-testid="gateway-key-input"
            value={key}
            onChange={(e) => setKey(e.target.value.trim())}
            placeholder="32 hex characters"
            size={36}
          />
        </label>{' '}
        <button
          className="btn btn-primary"
          type="button"
          onClick={() => void loadUsage()}
          disabled={!key}
        >
          Show usage
        </button>
        {error && (
          <p className="error-text" data-testid="gateway-error">
            {error}
          </p>
        )}
      </section>

      {usage && (
        <section className="card panel" data-testid="gateway-usage">
          <header className="card-head">
            <h2>Today (UTC)</h2>
            <span className="badge">{usage.plan} plan</span>
          </header>
          <p data-testid="gateway-totals">
            Used {usage.total.toLocaleString('en-US')} credits, {usage.left.toLocaleString('en-US')}{' '}
            left of {usage.limit.toLocaleString('en-US')}
          </p>
          <table className="small" data-testid="gateway-methods">
            {byChain(usage.methods).map((chain) => (
              <tbody key={chain.id} data-testid={`gateway-chain-${chain.id}`}>
                <tr>
                  <th>{chain.name}</th>
                  <th>{chain.total.toLocaleString('en-US')}</th>
                </tr>
                {chain.methods.map(([method, credits]) => (
                  <tr key={method}>
                    <td className="mono">{method}</td>
                    <td>{credits.toLocaleString('en-US')}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
          <h3 className="small muted">Credits per minute, last hour</h3>
          <HourChart minutes={usage.lastHour} />
          <h3 className="small muted">Access controls</h3>
          <KeyControls usage={usage} />
        </section>
      )}

      <section className="card panel" data-testid="gateway-methods-panel">
        <header className="card-head">
          <h2>Try the gateway methods</h2>
        </header>
        {GATEWAY_METHODS.map(({ method }, index) => (
          <button
            key={method}
            className="btn"
            type="button"
            disabled={!key}
            onClick={() => void tryMethod(index)}
          >
            {method}
          </button>
        ))}
        {answer && (
          <pre
            className="small"
            data-testid="gateway-answer"
            style={{
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-all',
              maxHeight: 320,
              overflow: 'auto',
            }}
          >
            {`${answer.method} → HTTP ${answer.status}${answer.credits}\n${answer.text}`}
          </pre>
        )}
      </section>
    </main>
  );
}
