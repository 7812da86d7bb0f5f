import { jsonRpcRequest, postJson } from '@l2wallet/testkit';
import { Account, CallData, config, hash, RpcProvider, uint256 } from 'starknet';
import { DevnetServer, DevnetServerOptions, startDevnetServer, STRK_TOKEN_ADDRESS } from '../src';

// starknet.js warns on every Account call that a young chain has too few tips to average.
config.set('logLevel', 'ERROR');

export interface TestDevnet {
  devnet: DevnetServer;
  provider: RpcProvider;
  account: (index?: number) => Account;
}

/** Starts a devnet on an ephemeral loopback port; the caller must close it. */
export async function startTestDevnet(options: DevnetServerOptions = {}): Promise<TestDevnet> {
  const devnet = await startDevnetServer({ host: '127.0.0.1', port: 0, ...options });
  const provider = new RpcProvider({ nodeUrl: devnet.rpcUrl });
  const account = (index = 0): Account => {
    const a = devnet.predeployedAccounts[index];
    return new Account({ provider, address: a.address, signer: a.private_key });
  };
  return { devnet, provider, account };
}

/** waitForTransaction polls after retryInterval; keep tests fast. */
export const WAIT = { retryInterval: 20 };

export interface RpcReply {
  jsonrpc: string;
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * A raw JSON-RPC call (params left out when undefined), for shapes and error codes below
 * starknet.js's abstractions.
 */
export async function rpc(url: string, method: string, params?: unknown): Promise<RpcReply> {
  return (await postJson(url, jsonRpcRequest(method, params))).json as RpcReply;
}

/** A POST of any body, for what the node answers to malformed requests. */
export async function postRaw(
  url: string,
  body: string,
): Promise<{ status: number; text: string }> {
  const { status, text } = await postJson(url, body);
  return { status, text };
}

export async function strkBalance(
  provider: RpcProvider,
  address: string,
  blockIdentifier = 'latest',
): Promise<bigint> {
  const [low, high] = await provider.callContract(
    { contractAddress: STRK_TOKEN_ADDRESS, entrypoint: 'balance_of', calldata: [address] },
    blockIdentifier,
  );
  return uint256.uint256ToBN({ low, high });
}

export function transferCall(recipient: string, amount: bigint, token = STRK_TOKEN_ADDRESS) {
  return {
    contractAddress: token,
    entrypoint: 'transfer',
    calldata: CallData.compile({ recipient, amount: uint256.bnToUint256(amount) }),
  };
}

/** An RPC 0.10 v3 transaction as getTransactionByHash returns it. */
export interface RpcV3Transaction {
  transaction_hash: string;
  type: string;
  version: string;
  nonce: string;
  sender_address?: string;
  calldata?: string[];
  account_deployment_data?: string[];
  class_hash?: string;
  compiled_class_hash?: string;
  contract_address_salt?: string;
  constructor_calldata?: string[];
  tip: string;
  paymaster_data: string[];
  nonce_data_availability_mode: 'L1' | 'L2';
  fee_data_availability_mode: 'L1' | 'L2';
  resource_bounds: Record<
    'l1_gas' | 'l2_gas' | 'l1_data_gas',
    { max_amount: string; max_price_per_unit: string }
  >;
}

/** The transaction hash as starknet.js computes it, independent of the devnet's own code. */
export function starknetJsTransactionHash(
  tx: RpcV3Transaction,
  chainId: string,
  contractAddress?: string,
): string {
  const bound = (b: { max_amount: string; max_price_per_unit: string }) => ({
    max_amount: BigInt(b.max_amount),
    max_price_per_unit: BigInt(b.max_price_per_unit),
  });
  const common = {
    version: tx.version as '0x3',
    chainId: chainId as '0x534e5f5345504f4c4941',
    nonce: tx.nonce,
    nonceDataAvailabilityMode: (tx.nonce_data_availability_mode === 'L1' ? 0 : 1) as 0,
    feeDataAvailabilityMode: (tx.fee_data_availability_mode === 'L1' ? 0 : 1) as 0,
    resourceBounds: {
      l1_gas: bound(tx.resource_bounds.l1_gas),
      l2_gas: bound(tx.resource_bounds.l2_gas),
      l1_data_gas: bound(tx.resource_bounds.l1_data_gas),
    },
    tip: tx.tip,
    paymasterData: tx.paymaster_data,
  };
  if (tx.type === 'INVOKE') {
    return hash.calculateInvokeTransactionHash({
      ...common,
      senderAddress: tx.sender_address as string,
      compiledCalldata: tx.calldata as string[],
      accountDeploymentData: tx.account_deployment_data ?? [],
    });
  }
  if (tx.type === 'DEPLOY_ACCOUNT') {
    return hash.calculateDeployAccountTransactionHash({
      ...common,
      contractAddress: contractAddress as string,
      classHash: tx.class_hash as string,
      compiledConstructorCalldata: tx.constructor_calldata as string[],
      salt: tx.contract_address_salt as string,
    });
  }
  return hash.calculateDeclareTransactionHash({
    ...common,
    senderAddress: tx.sender_address as string,
    classHash: tx.class_hash as string,
    compiledClassHash: tx.compiled_class_hash as string,
    accountDeploymentData: tx.account_deployment_data ?? [],
  });
}
