/**
 * Reads and devnet calls the Starknet tests share, straight over JSON-RPC (not through the snap
 * or a client under test): an ERC-20 balance, whether an account is deployed, minting STRK.
 */
import { STRK_TOKEN } from './constants';
import { JsonRpcError, rpc } from './jsonRpc';

/** starknet_keccak('balance_of'): the ERC-20 entry point the balances are read with. */
export const BALANCE_OF_SELECTOR =
  '0x35a73cd311a05d46deda634c5ee045db92f811b4e74bca4437fcb5302b7af33';

/** An ERC-20 balance (STRK unless `token` says otherwise), its u256 [low, high] joined. */
export async function erc20Balance(
  nodeUrl: string,
  address: string,
  options: { token?: string; block?: 'latest' | 'pre_confirmed' } = {},
): Promise<bigint> {
  const [low, high = '0x0'] = await rpc<string[]>(nodeUrl, 'starknet_call', {
    request: {
      contract_address: options.token ?? STRK_TOKEN,
      entry_point_selector: BALANCE_OF_SELECTOR,
      calldata: [address],
    },
    block_id: options.block ?? 'latest',
  });
  return BigInt(low) + (BigInt(high) << 128n);
}

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
