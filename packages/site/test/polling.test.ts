import { STARKNET_MAINNET as MAINNET, STARKNET_TESTNET as SEPOLIA } from '@l2wallet/testkit';
import { startPolling, type PolledTx } from '../src/utils/polling';

/** A fake client whose status reads take `delayMs`; it records each read and the overlap. */
function fakeClient(delayMs: number) {
  const reads: Array<{ transactionHash: string; chainId?: string }> = [];
  const state = { inFlight: 0, maxInFlight: 0 };
  return {
    reads,
    state,
    client: {
      getTransactionStatus: async (params: { transactionHash: string; chainId?: string }) => {
        reads.push(params);
        state.inFlight += 1;
        state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
        await new Promise((r) => setTimeout(r, delayMs));
        state.inFlight -= 1;
        return 'ACCEPTED_ON_L2';
      },
    },
  };
}

const until = async (check: () => boolean) => {
  const deadline = Date.now() + 2000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
};

describe('transaction status polling', () => {
  it('reads each transaction on the chain it was sent on, not the current network', async () => {
    const { client, reads } = fakeClient(1);
    const txs: PolledTx[] = [
      { hash: '0xa', chainId: SEPOLIA },
      { hash: '0xb', chainId: MAINNET },
    ];
    const seen: string[] = [];
    const stop = startPolling({
      client,
      intervalMs: 5,
      pending: () => txs.filter((t) => !seen.includes(t.hash)),
      onStatus: (hash) => seen.push(hash),
      onError: () => undefined,
    });
    await until(() => seen.length === 2);
    stop();
    expect(reads.slice(0, 2)).toEqual([
      { transactionHash: '0xa', chainId: SEPOLIA },
      { transactionHash: '0xb', chainId: MAINNET },
    ]);
  });

  it('never has two reads in flight, however slow they are', async () => {
    const { client, reads, state } = fakeClient(20);
    const txs: PolledTx[] = [
      { hash: '0xa', chainId: SEPOLIA },
      { hash: '0xb', chainId: SEPOLIA },
    ];
    const stop = startPolling({
      client,
      intervalMs: 1,
      pending: () => txs,
      onStatus: () => undefined,
      onError: () => undefined,
    });
    await until(() => reads.length >= 6);
    stop();
    expect(state.maxInFlight).toBe(1);
  });

  it('reports a failed read for that transaction, and stops when asked', async () => {
    const errors: string[] = [];
    let calls = 0;
    const stop = startPolling({
      client: {
        getTransactionStatus: async () => {
          calls += 1;
          throw new Error('node down');
        },
      },
      intervalMs: 1,
      pending: () => [{ hash: '0xa', chainId: SEPOLIA }],
      onStatus: () => undefined,
      onError: (hash, error) => errors.push(`${hash}: ${(error as Error).message}`),
    });
    await until(() => errors.length > 0);
    stop();
    const after = calls;
    await new Promise((r) => setTimeout(r, 30));
    expect(errors[0]).toBe('0xa: node down');
    expect(calls).toBe(after);
  });
});
