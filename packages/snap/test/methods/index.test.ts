/** The method table (src/methods/index.ts) and the dispatcher it feeds. */
import { METHODS } from '../../src/methods';
import { createDispatcher } from '../../src/rpc/dispatcher';

describe('method table', () => {
  it('answers to exactly the documented l2_ methods (and getDeploymentData), each with both prefixes', () => {
    const specMethods = [
      'addErc20Token',
      'createAccount',
      'declareContract',
      'displayPrivateKey',
      'estimateAccountDeployFee',
      'estimateFee',
      'executeTxn',
      'extractPublicKey',
      'getCurrentNetwork',
      // Not in the original methods (docs/interface/snap.md#methods): the wallet API's
      // wallet_deploymentData (packages/client) needs it.
      'getDeploymentData',
      'getErc20TokenBalance',
      'getTransaction',
      'getTransactions',
      'getTransactionStatus',
      'recoverAccounts',
      'signDeclareTransaction',
      'signMessage',
      'signTransaction',
      'switchNetwork',
      'verifySignedMessage',
    ];
    const expected = specMethods.flatMap((name) => [`l2_${name}`, `starkNet_${name}`]);
    expect([...createDispatcher(METHODS).methodNames].sort()).toEqual(expected.sort());
  });
});
