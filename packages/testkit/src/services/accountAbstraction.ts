/**
 * The ERC-4337 v0.6 side of the local EVM stack, put together: the @account-abstraction/contracts
 * 0.6.0 contracts deployed on an anvil (accountAbstractionContracts.ts), Pimlico's Alto bundler
 * in front of it on loopback (alto.ts), and a small ERC-7677 paymaster service that signs for
 * the deployed VerifyingPaymaster (erc7677Paymaster.ts). Its parts are exported from here too.
 */
import {
  deployAccountAbstraction,
  type AccountAbstractionDeployment,
} from './accountAbstractionContracts';
import { startAlto, type AltoService } from './alto';
import { startAnvil, type AnvilService } from './anvil';
import { startPaymasterService, type PaymasterService } from './erc7677Paymaster';

export { deployAccountAbstraction, type AccountAbstractionDeployment };
export { altoAddresses, startAlto, type AltoService } from './alto';
export { startPaymasterService, type PaymasterService };

/** What keyring_setChainConfig takes to point the keyring snap at a stack. */
export interface KeyringChainConfig {
  chainId: string;
  rpcUrl: string;
  bundlerUrl: string;
  entryPoint: string;
  factory: string;
  paymasterUrl?: string | null;
}

export interface AccountAbstractionStack {
  /** The anvil this function started (absent when `anvilUrl` was given). */
  anvil?: AnvilService;
  anvilUrl: string;
  contracts: AccountAbstractionDeployment;
  alto: AltoService;
  paymaster?: PaymasterService;
  /** keyring_setChainConfig params for this stack. */
  chainConfig: KeyringChainConfig;
  /** The keyring snap's build variables (KEYRING_*) for this stack. */
  keyringSnapEnv: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The whole ERC-4337 stack on loopback: an anvil (or the one at `anvilUrl`), the v0.6 contracts,
 * Alto and (unless `paymaster: false`) the ERC-7677 paymaster service. On failure whatever was
 * started is stopped again.
 */
export async function startAccountAbstractionStack(
  options: {
    anvilUrl?: string;
    bundlerPort?: number;
    paymasterPort?: number;
    paymaster?: boolean;
  } = {},
): Promise<AccountAbstractionStack> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
    stops.length = 0;
  };
  try {
    const anvil = options.anvilUrl ? undefined : await startAnvil();
    if (anvil) stops.push(() => anvil.stop());
    const anvilUrl = options.anvilUrl ?? (anvil as AnvilService).url;
    const contracts = await deployAccountAbstraction(anvilUrl);
    const paymaster =
      options.paymaster === false
        ? undefined
        : await startPaymasterService({
            rpcUrl: anvilUrl,
            entryPoint: contracts.entryPoint,
            paymaster: contracts.paymaster,
            chainId: contracts.chainId,
            signerKey: contracts.paymasterSignerKey,
            port: options.paymasterPort,
          });
    if (paymaster) stops.push(() => paymaster.stop());
    const alto = await startAlto({
      rpcUrl: anvilUrl,
      entryPoint: contracts.entryPoint,
      port: options.bundlerPort,
    });
    stops.push(() => alto.stop());
    const chainConfig: KeyringChainConfig = {
      chainId: String(contracts.chainId),
      rpcUrl: anvilUrl,
      bundlerUrl: alto.url,
      entryPoint: contracts.entryPoint,
      factory: contracts.factory,
      ...(paymaster ? { paymasterUrl: paymaster.url } : {}),
    };
    return {
      anvil,
      anvilUrl,
      contracts,
      alto,
      paymaster,
      chainConfig,
      keyringSnapEnv: {
        KEYRING_CHAIN_ID: chainConfig.chainId,
        KEYRING_RPC_URL: anvilUrl,
        KEYRING_BUNDLER_URL: alto.url,
        KEYRING_ENTRY_POINT: contracts.entryPoint,
        KEYRING_FACTORY: contracts.factory,
        KEYRING_PAYMASTER_URL: paymaster?.url ?? '',
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
