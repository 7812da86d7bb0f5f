import { installSnap } from '@metamask/snaps-jest';
import type { SnapError } from '@metamask/snaps-sdk';

import { METHODS as SNAP_METHODS } from '../../src/methods';
import { createDispatcher } from '../../src/rpc/dispatcher';
import { expectError, installGranted } from '../harness/snap';

/** Every base name in the method table; each answers with the `l2_` and `starkNet_` prefixes. */
const METHODS = [
  'getCurrentNetwork',
  'switchNetwork',
  'createAccount',
  'estimateAccountDeployFee',
  'recoverAccounts',
  'extractPublicKey',
  'getDeploymentData',
  'displayPrivateKey',
  'signMessage',
  'verifySignedMessage',
  'signTransaction',
  'signDeclareTransaction',
  'estimateFee',
  'executeTxn',
  'declareContract',
  'addErc20Token',
  'getErc20TokenBalance',
  'getTransaction',
  'getTransactions',
  'getTransactionStatus',
];

/** The dispatcher's failure for `method`: a SnapError with the JSON-RPC code it answers. */
async function failureOf(
  method: string,
  params?: unknown,
): Promise<{ code: number; message: string; stack?: string }> {
  const dispatcher = createDispatcher(SNAP_METHODS);
  const error = await dispatcher.handle({ method, params }, { origin: 'https://dapp.test' }).then(
    () => {
      throw new Error(`${method} answered instead of failing`);
    },
    (failure: unknown) => failure as SnapError,
  );
  return { code: error.code, message: error.message, stack: error.stack };
}

// The dispatcher is pure: routing and parameter validation are tested on the method table
// itself; one installed snap checks that onRpcRequest goes through it.
describe('dispatcher', () => {
  it('answers to l2_ and starkNet_ of every method in the table, and to nothing else', () => {
    expect([...createDispatcher(SNAP_METHODS).methodNames].sort()).toEqual(
      METHODS.flatMap((name) => [`l2_${name}`, `starkNet_${name}`]).sort(),
    );
  });

  it('answers -32601 for an unknown method, with no stack', async () => {
    for (const method of ['l2_doesNotExist', 'getCurrentNetwork', 'L2_getCurrentNetwork']) {
      const failure = await failureOf(method);
      expect(failure.code).toBe(-32601);
      expect(failure.message).toContain(method);
      expect(failure.stack).toBe('');
    }
  });

  it.each(METHODS.filter((name) => name !== 'getCurrentNetwork'))(
    'routes l2_%s and its starkNet_ alias to the same method',
    async (name) => {
      // Params that no method accepts: both names reach the same validator, not -32601.
      const [l2, alias] = await Promise.all([
        failureOf(`l2_${name}`, { chainId: 'not-a-chain' }),
        failureOf(`starkNet_${name}`, { chainId: 'not-a-chain' }),
      ]);
      expect(l2.code).toBe(-32602);
      expect(alias).toEqual(l2);
    },
  );

  it('rejects params that are not an object with -32602', async () => {
    const failure = await failureOf('l2_createAccount', ['0x1']);
    expect(failure.code).toBe(-32602);
    expect(failure.message).toMatch(/"params".*object/u);
  });

  it('routes l2_getCurrentNetwork and its starkNet_ alias in the installed snap', async () => {
    const { request } = await installSnap();
    for (const method of ['l2_getCurrentNetwork', 'starkNet_getCurrentNetwork']) {
      const response = (await request({ method, params: { chainId: 'not-a-chain' } })).response as {
        result?: unknown;
      };
      expect(response.result).toBeDefined();
    }
    expectError(await request({ method: 'l2_doesNotExist' }), -32601, /l2_doesNotExist/u);
    expectError(
      await request({ method: 'l2_createAccount', params: ['0x1'] }),
      -32602,
      /"params".*object/u,
    );
  });
});

describe('invalid params messages', () => {
  it('name the field path, what was wrong and what was expected', async () => {
    const { request } = await installGranted();
    expectError(
      await request({ method: 'l2_switchNetwork', params: {} }),
      -32602,
      'Invalid params: "chainId" is required: expected a known chain ID: 0x534e5f4d41494e (Mainnet) or 0x534e5f5345504f4c4941 (Testnet)',
    );
    expectError(
      await request({ method: 'l2_createAccount', params: { addressIndex: 'one' } }),
      -32602,
      'Invalid params: "addressIndex" is invalid: expected an address index: an integer from 0 to 2147483647, got "one"',
    );
    const { address } = (
      (await request({ method: 'l2_createAccount' })).response as { result: { address: string } }
    ).result;
    expectError(
      await request({
        method: 'l2_signTransaction',
        params: {
          address,
          chainId: 'SN_SEPOLIA',
          transactions: [{ contractAddress: '0x1', entrypoint: 'go' }],
          transactionsDetail: {
            nonce: 0,
            resourceBounds: {
              l1_gas: { max_amount: '0', max_price_per_unit: '0' },
              l2_gas: { max_amount: '18446744073709551616', max_price_per_unit: '0' },
            },
          },
        },
      }),
      -32602,
      'Invalid params: "transactionsDetail.resourceBounds.l2_gas.max_amount" is invalid: expected a u64 amount: a non-negative integer up to 18446744073709551615, got "18446744073709551616"',
    );
  });
});

describe('unexpected errors', () => {
  it('answer -32603 with the generic message, no stack and no internal detail', async () => {
    // State from a future snap version: the store refuses to read it (an internal error).
    const { request } = await installSnap({
      options: { state: { version: 99, secretMarker: 'SECRET-MARKER-0xdeadbeef' } },
    });
    for (const method of ['l2_getCurrentNetwork', 'l2_createAccount']) {
      const { response } = await request({ method });
      expectError({ response }, -32603);
      const { error } = response as { error: { message: string; data?: unknown } };
      expect(error.message).toBe('An unexpected error occurred in the Starknet snap.');
      const serialized = JSON.stringify(response);
      expect(serialized).not.toMatch(/SECRET-MARKER|deadbeef|newer|version 99|at .*\.js/u);
      expect(serialized).not.toContain('stack":"E');
    }
  });
});
