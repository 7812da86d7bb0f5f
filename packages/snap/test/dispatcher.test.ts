import { installSnap } from '@metamask/snaps-jest';

import { expectError } from './helpers';

/** The chain methods (issue 4): routed like the others; their behaviour is tested in test/chain/. */
const CHAIN_METHODS = [
  'declareContract',
  'estimateAccountDeployFee',
  'estimateFee',
  'executeTxn',
  'getErc20TokenBalance',
  'getTransaction',
  'getTransactions',
  'getTransactionStatus',
  'recoverAccounts',
];

const METHODS = [
  'getCurrentNetwork',
  'switchNetwork',
  'createAccount',
  'extractPublicKey',
  'displayPrivateKey',
  'signMessage',
  'verifySignedMessage',
  'signTransaction',
  'signDeclareTransaction',
  'addErc20Token',
];

describe('dispatcher', () => {
  it('answers -32601 for an unknown method, with no stack', async () => {
    const { request } = await installSnap();
    expectError(await request({ method: 'l2_doesNotExist' }), -32601, /l2_doesNotExist/u);
    expectError(await request({ method: 'getCurrentNetwork' }), -32601);
    expectError(await request({ method: 'L2_getCurrentNetwork' }), -32601);
  });

  it.each([...METHODS, ...CHAIN_METHODS])(
    'routes l2_%s and its starkNet_ alias to the same method',
    async (name) => {
      const { request } = await installSnap();
      // Params that no method accepts: both names reach the validator, not -32601.
      for (const method of [`l2_${name}`, `starkNet_${name}`]) {
        const response = (await request({ method, params: { chainId: 'not-a-chain' } }))
          .response as {
          result?: unknown;
          error?: { code: number };
        };
        if (name === 'getCurrentNetwork') {
          expect(response.result).toBeDefined();
        } else {
          expect(response.error?.code).toBe(-32602);
        }
      }
    },
  );

  it('rejects params that are not an object with -32602', async () => {
    const { request } = await installSnap();
    expectError(
      await request({ method: 'l2_createAccount', params: ['0x1'] }),
      -32602,
      /"params".*object/u,
    );
  });
});
