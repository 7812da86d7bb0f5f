/**
 * The relayer's invoke: its __execute__ calldata is starknet.js's, its signature verifies with
 * @scure/starknet against the relayer's public key, and a query version carries no signature.
 */
import { getPublicKey, Signature, verify } from '@scure/starknet';
import { hash, transaction as starknetTx } from 'starknet';

import { deployCall, multicallCalldata, transferCall, UDC_ADDRESS } from '../../src/protocol/calls';
import { toHex } from '../../src/protocol/felt';
import { boundsFor, maxFeeOf } from '../../src/protocol/fees';
import { queryInvoke, signedInvoke } from '../../src/protocol/transaction';

const KEY = '0x71d7bb07b9a64f6f78ac4c816aff4da9';
const calls = [
  transferCall(0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7n, 0x5n, 7n),
  deployCall({ address: 0n, classHash: 0x123n, salt: 0x9n, calldata: [0x1n, 0x0n] }),
];

it('writes the multicall as starknet.js does for a Cairo 1 account', () => {
  const theirs = starknetTx.getExecuteCalldata(
    calls.map((c, i) => ({
      contractAddress: toHex(c.to),
      entrypoint: ['transfer', 'deploy_contract'][i],
      calldata: c.calldata.map(toHex),
    })),
    '1',
  );
  expect(multicallCalldata(calls)).toEqual((theirs as string[]).map(BigInt));
  expect(calls[1].to).toBe(UDC_ADDRESS);
  // deploy_contract(class_hash, salt, not_from_zero = false, calldata)
  expect(calls[1].calldata).toEqual([0x123n, 0x9n, 0n, 2n, 0x1n, 0x0n]);
});

it('signs the v3 hash with the relayer key (verified with @scure/starknet)', () => {
  const estimate = {
    l1Gas: 0n,
    l1GasPrice: 100n,
    l2Gas: 1000n,
    l2GasPrice: 10n,
    l1DataGas: 100n,
    l1DataGasPrice: 1n,
    overallFee: 10_100n,
  };
  const bounds = boundsFor(estimate);
  expect(bounds.l2Gas).toEqual({ maxAmount: 1500n, maxPricePerUnit: 12n });
  expect(maxFeeOf(bounds, 0n)).toBe(1500n * 12n + 150n * 2n); // 1 x 1.2, rounded up
  const tx = signedInvoke({
    sender: 0xabcn,
    calls,
    nonce: 3n,
    bounds,
    tip: 0n,
    chainId: 0x534e5f5345504f4c4941n,
    privateKey: KEY,
  });
  // The hash is the protocol's v3 invoke hash, as starknet.js computes it.
  const theirs = hash.calculateInvokeTransactionHash({
    senderAddress: '0xabc',
    version: '0x3',
    compiledCalldata: tx.json.calldata,
    chainId: '0x534e5f5345504f4c4941',
    nonce: 3,
    accountDeploymentData: [],
    nonceDataAvailabilityMode: 0 as never,
    feeDataAvailabilityMode: 0 as never,
    resourceBounds: {
      l1_gas: { max_amount: 0n, max_price_per_unit: 120n },
      l2_gas: { max_amount: 1500n, max_price_per_unit: 12n },
      l1_data_gas: { max_amount: 150n, max_price_per_unit: 2n },
    },
    tip: 0,
    paymasterData: [],
  });
  expect(toHex(tx.hash)).toBe(theirs);
  const [r, s] = tx.json.signature.map(BigInt);
  expect(verify(new Signature(r, s), toHex(tx.hash), getPublicKey(KEY))).toBe(true);
  expect(tx.json).toMatchObject({ version: '0x3', nonce: '0x3', sender_address: '0xabc' });
  const query = queryInvoke(0xabcn, calls, 3n);
  expect(query.version).toBe('0x100000000000000000000000000000003');
  expect(query.signature).toEqual([]);
  expect(query.calldata).toEqual(tx.json.calldata);
});
