/**
 * A same-height reorg made with anvil_reorg, seen by polling alone (no wsUpstream, the default
 * headPollMs): the head block is replaced by one at the same height that moves a different
 * amount, and within two poll intervals the gateway answers the new block's hash and the new
 * balance, never the orphaned block's.
 */
import { ANVIL_ACCOUNTS, type AnvilService, startAnvil } from '@l2wallet/testkit';
import { call, gatewayConfig, post, startWithKey } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TO = '0x' + '51'.repeat(20);
const POLL_MS = 250; // the default headPollMs

async function until(ok: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

describe('a same-height reorg by anvil_reorg, by polling', () => {
  let anvil: AnvilService;
  beforeAll(async () => {
    anvil = await startAnvil();
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it('answers the new head block and balance within two poll intervals', async () => {
    const config = gatewayConfig(anvil.url);
    expect(config.chains[0].wsUpstream).toBeUndefined();
    expect(config.chains[0].headPollMs).toBeUndefined();
    const { gw, rpcUrl } = await startWithKey(config);
    // Blocks are mined by the test alone (evm_mine, anvil_reorg): with automine, anvil sometimes
    // mined a transaction a second time in a block of its own after a reorg.
    await post(anvil.url, call('evm_setAutomine', [false]));
    const from = ANVIL_ACCOUNTS[0].address;
    const latest = async (url: string) => {
      const [block, balance, number] = await Promise.all([
        post(url, call('eth_getBlockByNumber', ['latest', false])),
        post(url, call('eth_getBalance', [TO, 'latest'])),
        post(url, call('eth_blockNumber')),
      ]);
      return {
        hash: block.json.result?.hash as string,
        balance: balance.json.result as string,
        number: number.json.result as string,
      };
    };
    try {
      // Each round: a block moving 1 wei, read through the gateway at once (eth_blockNumber
      // there takes the new height before any poll has its hash), then replaced at the same
      // height by one moving 2 wei; and once more after the gateway polled the first block.
      for (const settle of [0, 0, 0, 2 * POLL_MS]) {
        const nonce = (await post(anvil.url, call('eth_getTransactionCount', [from, 'latest'])))
          .json.result as string;
        await post(anvil.url, call('eth_sendTransaction', [{ from, to: TO, value: '0x1', nonce }]));
        await post(anvil.url, call('evm_mine'));
        const first = await latest(anvil.url);
        await until(async () => {
          const seen = await latest(rpcUrl);
          return seen.hash === first.hash && seen.balance === first.balance;
        });
        await sleep(settle);
        expect(await latest(rpcUrl)).toEqual(first); // the first block's answers, in memory
        const reorg = await post(
          anvil.url,
          // The replacement takes the replaced transaction's nonce, so that one can never be
          // mined again on top (anvil may return an orphaned transaction to its pool).
          call('anvil_reorg', [1, [[{ from, to: TO, value: '0x2', nonce }, 0]]]),
        );
        expect(reorg.json.error).toBeUndefined();
        const replaced = await latest(anvil.url);
        expect(replaced.number).toBe(first.number);
        expect(replaced.hash).not.toBe(first.hash);
        expect(BigInt(replaced.balance) - BigInt(first.balance)).toBe(1n);

        await sleep(2 * POLL_MS);
        expect(await latest(rpcUrl)).toEqual(replaced);
      }
    } finally {
      await gw.close();
    }
  });
});
