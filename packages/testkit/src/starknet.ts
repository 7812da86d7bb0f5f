/**
 * Reads and devnet calls the Starknet tests share, straight over JSON-RPC (not through the snap or
 * a client under test): an ERC-20 balance or allowance, whether an account is deployed, minting
 * STRK; and deploying a token of one's own (a transaction, signed with starknet.js's Account).
 */
import { STRK_TOKEN } from './constants';
import { JsonRpcError, rpc } from './jsonRpc';

/** starknet_keccak('balance_of'): the ERC-20 entry point the balances are read with. */
export const BALANCE_OF_SELECTOR =
  '0x35a73cd311a05d46deda634c5ee045db92f811b4e74bca4437fcb5302b7af33';
/** starknet_keccak('allowance'). */
export const ALLOWANCE_SELECTOR =
  '0x1e888a1026b19c8c0b57c72d63ed1737106aa10034105b980ba117bd0c29fe1';

export interface Erc20ReadOptions {
  /** The token (STRK unless told). */
  token?: string;
  block?: 'latest' | 'pre_confirmed';
}

/** An ERC-20 view answering a u256 ([low, high] joined). */
async function erc20U256(
  nodeUrl: string,
  selector: string,
  calldata: string[],
  options: Erc20ReadOptions,
): Promise<bigint> {
  const [low, high = '0x0'] = await rpc<string[]>(nodeUrl, 'starknet_call', {
    request: {
      contract_address: options.token ?? STRK_TOKEN,
      entry_point_selector: selector,
      calldata,
    },
    block_id: options.block ?? 'latest',
  });
  return BigInt(low) + (BigInt(high) << 128n);
}

/** An ERC-20 balance (STRK unless `token` says otherwise). */
export const erc20Balance = (nodeUrl: string, address: string, options: Erc20ReadOptions = {}) =>
  erc20U256(nodeUrl, BALANCE_OF_SELECTOR, [address], options);

/** What `owner` lets `spender` take of an ERC-20 (STRK unless `token` says otherwise). */
export const erc20Allowance = (
  nodeUrl: string,
  owner: string,
  spender: string,
  options: Erc20ReadOptions = {},
) => erc20U256(nodeUrl, ALLOWANCE_SELECTOR, [owner, spender], options);

/** Whether a contract (an account) is deployed at `address` in the latest block. */
export async function isDeployed(nodeUrl: string, address: string): Promise<boolean> {
  try {
    await rpc(nodeUrl, 'starknet_getClassHashAt', {
      block_id: 'latest',
      contract_address: address,
    });
    return true;
  } catch (error) {
    if (error instanceof JsonRpcError && error.code === 20) return false; // contract not found
    throw error;
  }
}

/** Mints `amount` STRK (in FRI) to `address` on a devnet. */
export async function mintStrk(
  devnetRpcUrl: string,
  address: string,
  amount: bigint,
): Promise<void> {
  await rpc(devnetRpcUrl, 'devnet_mint', { address, amount: amount.toString(), unit: 'FRI' });
}

/** Mints `amount` ETH (in wei) to `address` on a devnet. */
export async function mintEth(
  devnetRpcUrl: string,
  address: string,
  amount: bigint,
): Promise<void> {
  await rpc(devnetRpcUrl, 'devnet_mint', { address, amount: amount.toString(), unit: 'WEI' });
}

/**
 * A token of one's own on a packages/devnet node: the devnet's ERC-20 class (read off the STRK
 * token) deployed through the UDC by its first predeployed account, with `supply` sent to
 * `recipient` (the deployer when none is given). Resolves to the token's address once the
 * deployment is in a block.
 */
export async function deployToken(
  devnetRpcUrl: string,
  token: {
    name: string;
    symbol: string;
    decimals: number;
    supply?: bigint;
    recipient?: string;
    salt?: string;
  },
): Promise<string> {
  // Loaded on use: the other testkit users (gateway, keyring tests) never pay for starknet.js.
  const { Account, CallData, RpcProvider, shortString, uint256 } = await import('starknet');
  const [deployer] = await rpc<{ address: string; private_key: string }[]>(
    devnetRpcUrl,
    'devnet_getPredeployedAccounts',
  );
  const provider = new RpcProvider({ nodeUrl: devnetRpcUrl });
  const account = new Account({
    provider,
    address: deployer.address,
    signer: deployer.private_key,
  });
  const classHash = await rpc<string>(devnetRpcUrl, 'starknet_getClassHashAt', {
    block_id: 'latest',
    contract_address: STRK_TOKEN,
  });
  const deployment = await account.deployContract(
    {
      classHash,
      salt: token.salt ?? `0x${Buffer.from(token.symbol).toString('hex')}`,
      constructorCalldata: CallData.compile([
        shortString.encodeShortString(token.name),
        shortString.encodeShortString(token.symbol),
        token.decimals,
        uint256.bnToUint256(token.supply ?? 0n),
        token.recipient ?? deployer.address,
      ]),
    },
    { retryInterval: 20 },
  );
  return deployment.contract_address;
}
