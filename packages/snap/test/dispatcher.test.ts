import { installSnap } from '@metamask/snaps-jest';

import { expectError, installGranted } from './helpers';

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

describe('dispatcher', () => {
  it('answers -32601 for an unknown method, with no stack', async () => {
    const { request } = await installSnap();
    expectError(await request({ method: 'l2_doesNotExist' }), -32601, /l2_doesNotExist/u);
    expectError(await request({ method: 'getCurrentNetwork' }), -32601);
    expectError(await request({ method: 'L2_getCurrentNetwork' }), -32601);
  });

  it.each(METHODS)('routes l2_%s and its starkNet_ alias to the same method', async (name) => {
    const { request } = await installSnap();
    // Params that no method accepts: both names reach the validator, not -32601.
    for (const method of [`l2_${name}`, `starkNet_${name}`]) {
      const response = (await request({ method, params: { chainId: 'not-a-chain' } })).response as {
        result?: unknown;
        error?: { code: number };
      };
      if (name === 'getCurrentNetwork') {
        expect(response.result).toBeDefined();
      } else {
        expect(response.error?.code).toBe(-32602);
      }
    }
  });

  it('rejects params that are not an object with -32602', async () => {
    const { request } = await installSnap();
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
