/**
 * What the paymaster's end-to-end tests share: a devnet (in this process) and the l2-paymaster
 * CLI in front of it (the testkit's services), the relayer taken from the devnet's predeployed
 * accounts, and users as wallets hold them: Argent 0.3.1 accounts (the snap's, SNIP-9 v1) and
 * the devnet's OpenZeppelin accounts (SNIP-9 v2), driven by starknet.js's own Account and
 * PaymasterRpc.
 */
import type { DevnetServer } from '@l2wallet/devnet';
import {
  ARGENT_ACCOUNT_CLASS_HASH,
  erc20Balance,
  type DevnetPaymaster,
  ETH_TOKEN,
  mintEth as mintEthOnDevnet,
  rpc,
  startDevnet,
  startDevnetPaymaster,
  type StartDevnetOptions,
  type StartPaymasterOptions,
  STRK_TOKEN,
} from '@l2wallet/testkit';
import {
  Account,
  CallData,
  type Call,
  ec,
  hash,
  type PaymasterDetails,
  PaymasterRpc,
  RpcProvider,
  stark,
  type TypedData,
  uint256,
} from 'starknet';

export { ETH_TOKEN, STRK_TOKEN };

/** A sponsor key the paymaster is started with. */
export const SPONSOR_KEY = 'sponsor-key-for-tests-7f3a';
/** ETH's price in STRK the paymaster is started with. */
export const ETH_PRICE_IN_STRK = '2500';

export type Devnet = DevnetServer & { stop(): Promise<void> };

export interface PredeployedAccount {
  address: string;
  private_key: string;
  public_key: string;
}

export interface Stack {
  devnet: Devnet;
  paymaster: DevnetPaymaster;
  provider: RpcProvider;
  relayer: { address: string };
  /** The predeployed accounts the relayer is not. */
  accounts: PredeployedAccount[];
  stop(): Promise<void>;
}

/** The gas tokens the paymaster is started with: ETH at ETH_PRICE_IN_STRK. */
export const GAS_TOKENS = [{ address: ETH_TOKEN, priceInStrk: ETH_PRICE_IN_STRK }];

/**
 * A devnet and the paymaster in front of it (the testkit's startDevnetPaymaster: the relayer is
 * the devnet's last predeployed account), ETH a gas token at ETH_PRICE_IN_STRK, SPONSOR_KEY a
 * sponsor key.
 */
export async function startStack(
  options: {
    accounts?: number;
    devnet?: StartDevnetOptions;
    paymaster?: Partial<Omit<StartPaymasterOptions, 'relayer' | 'nodeUrl'>>;
    /** The node the paymaster talks to, if not the devnet itself (a proxy in front of it). */
    nodeUrl?: (devnet: Devnet) => Promise<string> | string;
  } = {},
): Promise<Stack> {
  const devnet = await startDevnet<DevnetServer>({
    accounts: options.accounts ?? 4,
    ...options.devnet,
  });
  try {
    const predeployed = await rpc<PredeployedAccount[]>(
      devnet.rpcUrl,
      'devnet_getPredeployedAccounts',
      {},
    );
    const paymaster = await startDevnetPaymaster(devnet.rpcUrl, {
      nodeUrl: options.nodeUrl ? await options.nodeUrl(devnet) : undefined,
      apiKeys: [SPONSOR_KEY],
      gasTokens: GAS_TOKENS,
      ...options.paymaster,
    });
    return {
      devnet,
      paymaster,
      provider: new RpcProvider({ nodeUrl: devnet.rpcUrl }),
      relayer: paymaster.relayer,
      accounts: predeployed.slice(0, -1),
      stop: async () => {
        await paymaster.stop();
        await devnet.stop();
      },
    };
  } catch (error) {
    await devnet.stop();
    throw error;
  }
}

/** starknet.js's paymaster client on this paymaster, with the sponsor key when told. */
export function paymasterClient(stack: Stack, apiKey?: string): PaymasterRpc {
  return new PaymasterRpc({
    nodeUrl: stack.paymaster.url,
    headers: apiKey === undefined ? {} : { 'x-paymaster-api-key': apiKey },
  });
}

/** A starknet.js Account for a predeployed account, using this paymaster. */
export function predeployedUser(stack: Stack, index: number, apiKey?: string): Account {
  const a = stack.accounts[index];
  return new Account({
    provider: stack.provider,
    address: a.address,
    signer: a.private_key,
    cairoVersion: '1',
    paymaster: paymasterClient(stack, apiKey),
  });
}

export interface ArgentUser {
  account: Account;
  address: string;
  privateKey: string;
  publicKey: string;
  /** What a wallet hands starknet.js (wallet_deploymentData): SNIP-29's ACCOUNT_DEPLOYMENT_DATA. */
  deploymentData: {
    address: string;
    class_hash: string;
    salt: string;
    calldata: string[];
    version: 1;
  };
}

/**
 * A new Argent 0.3.1 account as the snap derives them (owner = key, guardian 0, salt = key), not
 * deployed.
 */
export function newArgentUser(stack: Stack, apiKey?: string): ArgentUser {
  const privateKey = stark.randomAddress();
  const publicKey = ec.starkCurve.getStarkKey(privateKey);
  const calldata = CallData.compile([publicKey, 0]);
  const address = hash.calculateContractAddressFromHash(
    publicKey,
    ARGENT_ACCOUNT_CLASS_HASH,
    calldata,
    0,
  );
  return {
    account: new Account({
      provider: stack.provider,
      address,
      signer: privateKey,
      cairoVersion: '1',
      paymaster: paymasterClient(stack, apiKey),
    }),
    address,
    privateKey,
    publicKey,
    deploymentData: {
      address,
      class_hash: ARGENT_ACCOUNT_CLASS_HASH,
      salt: publicKey,
      calldata: calldata.map((value) => `0x${BigInt(value).toString(16)}`),
      version: 1,
    },
  };
}

/** Mints ETH (in wei) to any address on the devnet (the testkit's mintEth). */
export const mintEth = (stack: Stack, address: string, wei: bigint): Promise<void> =>
  mintEthOnDevnet(stack.devnet.rpcUrl, address, wei);

export const balanceOf = (stack: Stack, address: string, token: string = STRK_TOKEN) =>
  erc20Balance(stack.devnet.rpcUrl, address, { token, block: 'pre_confirmed' });

/** An ERC-20 transfer call, as a dapp writes it. */
export const transfer = (token: string, recipient: string, amount: bigint): Call => ({
  contractAddress: token,
  entrypoint: 'transfer',
  calldata: CallData.compile({ recipient, amount: uint256.bnToUint256(amount) }),
});

/** The receipt of a transaction, once the node has it (a small poll interval, as tests need). */
export const receiptOf = (stack: Stack, transactionHash: string) =>
  stack.provider.waitForTransaction(transactionHash, { retryInterval: 100 });

/**
 * What starknet.js's executePaymasterTransaction sends, stopped before it is sent: the
 * paymaster's build of `calls`, signed by `account`; `alter` changes the typed data before it is
 * signed (a hostile wallet).
 */
export async function signedBuild(
  account: Account,
  calls: Call[],
  details: PaymasterDetails,
  alter?: (typedData: any) => void, // eslint-disable-line @typescript-eslint/no-explicit-any
) {
  const built = await account.buildPaymasterTransaction(calls, details);
  if (built.type !== 'invoke') throw new Error(`built ${built.type}`);
  const typedData: typeof built.typed_data = alter
    ? JSON.parse(JSON.stringify(built.typed_data))
    : built.typed_data;
  alter?.(typedData);
  const signature = stark.signatureToHexArray(await account.signMessage(typedData as TypedData));
  return {
    transaction: {
      type: 'invoke' as const,
      invoke: { userAddress: account.address, typedData, signature },
    },
    parameters: built.parameters,
  };
}
