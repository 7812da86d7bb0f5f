/**
 * Compile-time checks of the param and result types against what the snap accepts and returns
 * (packages/snap/src/methods/*.ts): `npx tsc -p packages/client` fails if one of these breaks.
 */
import type { RequestFn, StarknetWindowObject, WalletEventHandlers } from '@starknet-io/types-js';

import {
  StarknetSnapClient,
  TESTNET_CHAIN_ID,
  createStarknetWindowObject,
  type AddErc20TokenParams,
  type CreatedAccount,
  type DeployAccountResult,
  type SignDeclareTransactionParams,
  type SignMessageParams,
  type SignTransactionParams,
  type Token,
  type TxDetails,
  type VerifySignedMessageParams,
} from '../src';

const resourceBounds = {
  l1_gas: { max_amount: '0x0', max_price_per_unit: 1 },
  l2_gas: { max_amount: 10, max_price_per_unit: '0x10' },
};
const call = { contractAddress: '0x1', entrypoint: 'transfer', calldata: [] };

// signTransaction: transactionsDetail with nonce and resourceBounds is required; senderAddress
// is an alias of address.
export const signTx: SignTransactionParams[] = [
  {
    address: '0x1',
    chainId: TESTNET_CHAIN_ID,
    transactions: [call],
    transactionsDetail: { nonce: 0, resourceBounds },
  },
  {
    senderAddress: '0x1',
    chainId: TESTNET_CHAIN_ID,
    transactions: [call],
    transactionsDetail: { nonce: '0x0', resourceBounds, tip: 5, nonceDataAvailabilityMode: 'L1' },
  },
  // @ts-expect-error no transactionsDetail
  { address: '0x1', chainId: TESTNET_CHAIN_ID, transactions: [call] },
  {
    address: '0x1',
    chainId: TESTNET_CHAIN_ID,
    transactions: [call],
    // @ts-expect-error no resourceBounds
    transactionsDetail: { nonce: 0 },
  },
  // @ts-expect-error no sender
  {
    chainId: TESTNET_CHAIN_ID,
    transactions: [call],
    transactionsDetail: { nonce: 0, resourceBounds },
  },
];

// signDeclareTransaction: compiledClassHash, nonce, resourceBounds required; one sender alias.
const declareDetails = { classHash: '0x5', compiledClassHash: '0x6', nonce: 0, resourceBounds };
export const signDeclare: SignDeclareTransactionParams[] = [
  { address: '0x1', chainId: TESTNET_CHAIN_ID, details: declareDetails },
  { senderAddress: '0x1', chainId: TESTNET_CHAIN_ID, details: declareDetails },
  { chainId: TESTNET_CHAIN_ID, details: { ...declareDetails, senderAddress: '0x1' } },
  // @ts-expect-error no sender at all
  { chainId: TESTNET_CHAIN_ID, details: declareDetails },
  {
    address: '0x1',
    chainId: TESTNET_CHAIN_ID,
    // @ts-expect-error no compiledClassHash
    details: { classHash: '0x5', nonce: 0, resourceBounds },
  },
];

export const signMessage: SignMessageParams[] = [
  { typedDataMessage: '{}', signerAddress: '0x1' },
  { typedDataMessage: '{}', address: '0x1' },
  // @ts-expect-error no signer
  { typedDataMessage: '{}' },
];

export const verify: VerifySignedMessageParams[] = [
  { typedDataMessage: '{}', address: '0x1', signature: '0x1,0x2' },
  { typedDataMessage: '{}', signerAddress: '0x1', signature: ['0x1', '0x2'] },
];

export const token: AddErc20TokenParams = {
  address: '0x1',
  chainId: TESTNET_CHAIN_ID,
  tokenAddress: '0x2',
  tokenName: 'Token',
  tokenSymbol: 'TKN',
  tokenLogo: 'https://example.com/t.png',
};

export const details: TxDetails[] = [
  { maxFee: 1, tip: '0x1', feeDataAvailabilityMode: 'L2' },
  // @ts-expect-error DA modes are 'L1' | 'L2'
  { nonceDataAvailabilityMode: 'L3' },
];

/** Result types, checked by assignment inside a function that is never called. */
export async function resultTypes(client: StarknetSnapClient) {
  const created: CreatedAccount = await client.createAccount({ addressIndex: 1 });
  const deployed: DeployAccountResult = await client.createAccount({ deploy: true });
  // @ts-expect-error without deploy there is no transaction hash
  const wrong: DeployAccountResult = await client.createAccount();
  const signature: string = await client.signMessage({ typedDataMessage: '{}', address: '0x1' });
  const added: Token = await client.addErc20Token(token);
  const named: [string, string] = [added.name, added.chainId];
  return { created, deployed, wrong, signature, named };
}

// The wallet object is the ecosystem's StarknetWindowObject, its request the types-js RequestFn.
export function walletApiTypes(client: StarknetSnapClient) {
  const wallet: StarknetWindowObject = createStarknetWindowObject(client);
  const request: RequestFn = wallet.request;
  const onNetwork: WalletEventHandlers['networkChanged'] = (chainId, accounts) =>
    void [chainId, accounts];
  wallet.on('networkChanged', onNetwork);
  // @ts-expect-error the result of wallet_requestChainId is a chain id, not a list
  const wrongResult: Promise<string[]> = request({ type: 'wallet_requestChainId' });
  // @ts-expect-error wallet_watchAsset needs its params
  const noParams = request({ type: 'wallet_watchAsset' });
  return { wrongResult, noParams };
}

describe('types', () => {
  it('compile (see tsc -p packages/client)', () => {
    expect(signTx.length + signDeclare.length + signMessage.length).toBeGreaterThan(0);
  });
});
