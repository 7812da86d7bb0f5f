/**
 * `sponsored` mode: a dapp holding a sponsor key (x-paymaster-api-key) has the relayer pay. A
 * brand-new Argent account with no balance at all is deployed (deploy_and_invoke) and transacts;
 * without a valid key nothing is built or executed, and nothing moves.
 */
import { rpc } from '@l2wallet/testkit';
import { CallData } from 'starknet';

import {
  type ArgentUser,
  balanceOf,
  ETH_TOKEN,
  newArgentUser,
  paymasterClient,
  receiptOf,
  SPONSOR_KEY,
  type Stack,
  startStack,
  STRK_TOKEN,
  transfer,
} from './helpers';

let stack: Stack;
const SPONSORED = { mode: 'sponsored' as const };

beforeAll(async () => {
  stack = await startStack();
});

afterAll(() => stack?.stop());

/** A call that changes state without moving any token: approve a spender. */
const approve = (spender: string, amount: bigint) => ({
  contractAddress: STRK_TOKEN,
  entrypoint: 'approve',
  calldata: CallData.compile({ spender, amount: { low: amount, high: 0n } }),
});

async function allowance(owner: string, spender: string): Promise<bigint> {
  const [low] = await stack.provider.callContract({
    contractAddress: STRK_TOKEN,
    entrypoint: 'allowance',
    calldata: [owner, spender],
  });
  return BigInt(low);
}

describe('with the sponsor key', () => {
  let user: ArgentUser;

  beforeAll(() => {
    user = newArgentUser(stack, SPONSOR_KEY);
  });

  it('deploys a zero-balance account and runs its call (deploy_and_invoke), the relayer paying', async () => {
    expect(await balanceOf(stack, user.address)).toBe(0n);
    expect(await balanceOf(stack, user.address, ETH_TOKEN)).toBe(0n);
    const relayerBefore = await balanceOf(stack, stack.relayer.address);
    const { transaction_hash } = await user.account.executePaymasterTransaction(
      [approve('0x5ea1ed', 77n)],
      { feeMode: SPONSORED, deploymentData: user.deploymentData },
    );
    expect((await receiptOf(stack, transaction_hash)).isSuccess()).toBe(true);
    expect(await allowance(user.address, '0x5ea1ed')).toBe(77n);
    expect(await balanceOf(stack, user.address)).toBe(0n);
    expect(await balanceOf(stack, user.address, ETH_TOKEN)).toBe(0n);
    expect(await balanceOf(stack, stack.relayer.address)).toBeLessThan(relayerBefore);
  });

  it('then invokes it again, sponsored, with no typed-data fee call', async () => {
    const built = await user.account.buildPaymasterTransaction([approve('0x5ea1ed', 5n)], {
      feeMode: SPONSORED,
    });
    if (built.type !== 'invoke') throw new Error(`built ${built.type}`);
    expect((built.typed_data.message as { calls: unknown[] }).calls).toHaveLength(1);
    const { transaction_hash } = await user.account.executePaymasterTransaction(
      [approve('0x5ea1ed', 5n)],
      { feeMode: SPONSORED },
    );
    expect((await receiptOf(stack, transaction_hash)).isSuccess()).toBe(true);
    expect(await allowance(user.address, '0x5ea1ed')).toBe(5n);
  });

  it('deploys an account alone (deploy), and tracks the request', async () => {
    const fresh = newArgentUser(stack, SPONSOR_KEY);
    const client = paymasterClient(stack, SPONSOR_KEY);
    const parameters = { version: '0x1' as const, feeMode: SPONSORED };
    const built = await client.buildTransaction(
      { type: 'deploy', deployment: fresh.deploymentData },
      parameters,
    );
    expect(built.type).toBe('deploy');
    const executed = await client.executeTransaction(
      { type: 'deploy', deployment: fresh.deploymentData },
      built.parameters,
    );
    await receiptOf(stack, executed.transaction_hash);
    expect(await stack.provider.getClassHashAt(fresh.address)).toBeDefined();
    const tracked = await rpc(stack.paymaster.url, 'paymaster_trackingIdToLatestHash', {
      tracking_id: executed.tracking_id,
    });
    expect(tracked).toEqual({ transaction_hash: executed.transaction_hash, status: 'accepted' });
    // A second deploy of it is refused: it is there.
    await expect(
      client.buildTransaction({ type: 'deploy', deployment: fresh.deploymentData }, parameters),
    ).rejects.toMatchObject({ baseError: { code: 158 } });
  });
});

describe('without a valid sponsor key', () => {
  it.each([
    ['no key', undefined],
    ['a wrong key', 'not-a-sponsor-key'],
    ['a key differing in case', SPONSOR_KEY.toUpperCase()],
  ])(
    '%s: sponsored is refused (163, saying why), nothing is deployed or moved',
    async (_name, key) => {
      const user = newArgentUser(stack, key);
      const relayerBefore = await balanceOf(stack, stack.relayer.address);
      const error = await user.account
        .executePaymasterTransaction([transfer(ETH_TOKEN, '0x5ea1ed', 0n)], {
          feeMode: SPONSORED,
          deploymentData: user.deploymentData,
        })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        baseError: {
          code: 163,
          message: 'An error occurred (UNKNOWN_ERROR)',
          data: expect.stringContaining('x-paymaster-api-key'),
        },
      });
      await expect(stack.provider.getClassHashAt(user.address)).rejects.toThrow();
      expect(await balanceOf(stack, stack.relayer.address)).toBe(relayerBefore);
    },
  );

  it('cannot execute typed data built with the key either', async () => {
    const user = newArgentUser(stack, SPONSOR_KEY);
    const calls = [approve('0x5ea1ed', 1n)];
    const details = { feeMode: SPONSORED, deploymentData: user.deploymentData };
    const built = await user.account.buildPaymasterTransaction(calls, details);
    const signed = await user.account.preparePaymasterTransaction(built);
    await expect(
      paymasterClient(stack).executeTransaction(signed, built.parameters),
    ).rejects.toMatchObject({
      baseError: { code: 163 },
    });
    await expect(stack.provider.getClassHashAt(user.address)).rejects.toThrow();
    // With the key the same signed request goes through.
    const executed = await paymasterClient(stack, SPONSOR_KEY).executeTransaction(
      signed,
      built.parameters,
    );
    expect((await receiptOf(stack, executed.transaction_hash)).isSuccess()).toBe(true);
  });
});
