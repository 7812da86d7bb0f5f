/**
 * One call for a dapp: find MetaMask (EIP-6963), build the snap client and the wallet-API
 * object, and register it as a Wallet Standard wallet (and, for get-starknet v4 style
 * discovery, as `window.starknet_<id>`).
 */
import { StarknetSnapClient, type SnapClientOptions } from './client';
import type { DiscoverOptions } from './provider';
import {
  createStarknetWindowObject,
  type SnapStarknetWindowObject,
  type StarknetWindowOptions,
} from './wallet-api/wallet';
import { registerStarknetWallet, type StarknetStandardWalletOptions } from './wallet-standard';

export interface SetupStarknetSnapOptions
  extends Omit<SnapClientOptions, 'provider'>, DiscoverOptions, StarknetWindowOptions {
  /**
   * Also set `window.starknet_<id>` (get-starknet v4, starknet-react's InjectedConnector). Default
   * true.
   */
  injectWindowObject?: boolean;
  /** Name and icon shown by Wallet Standard wallet pickers. */
  standardWallet?: StarknetStandardWalletOptions;
}

export interface StarknetSnapSetup {
  client: StarknetSnapClient;
  wallet: SnapStarknetWindowObject;
  /** Unregisters the Wallet Standard wallet and removes `window.starknet_<id>`. */
  unregister(): void;
}

/**
 * Discovers MetaMask, builds the wallet and registers it. Nothing is asked of the user yet: the
 * snap is installed on the dapp's first `wallet_requestAccounts` (or Wallet Standard connect).
 * Throws WalletNotFoundError when the page has no wallet.
 */
export async function setupStarknetSnap(
  options: SetupStarknetSnapOptions = {},
): Promise<StarknetSnapSetup> {
  const client = await StarknetSnapClient.discover(options);
  const wallet = createStarknetWindowObject(client, options);
  const unregisterStandard = registerStarknetWallet(wallet, options.standardWallet);
  const key = `starknet_${wallet.id}`;
  const globals = window as unknown as Record<string, unknown>;
  const inject = options.injectWindowObject ?? true;
  if (inject) globals[key] = wallet;
  return {
    client,
    wallet,
    unregister: () => {
      unregisterStandard();
      if (inject && globals[key] === wallet) delete globals[key];
    },
  };
}
