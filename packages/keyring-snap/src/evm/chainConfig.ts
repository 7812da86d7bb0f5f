/**
 * Chain configuration. The build-time default (one chain) comes from the snap config's
 * environment (KEYRING_* variables, see snap.config.ts); `keyring_setChainConfig` stores
 * overrides and extra chains in snap state.
 */
import { isAddress } from 'viem';

import { invalidParams } from '../errors';

export type ChainConfig = {
  /** Decimal chain id. */
  chainId: number;
  rpcUrl: string;
  bundlerUrl: string;
  entryPoint: `0x${string}`;
  factory: `0x${string}`;
  /** An ERC-7677 paymaster service; null when operations pay for themselves. */
  paymasterUrl: string | null;
};

function envAddress(value: string | undefined, name: string): `0x${string}` {
  if (!value || !isAddress(value, { strict: false })) {
    throw new Error(`Build variable ${name} is not an address`);
  }
  return value.toLowerCase() as `0x${string}`;
}

/** The chain the snap was built for. */
export function defaultChainConfig(): ChainConfig {
  return {
    chainId: Number(process.env.KEYRING_CHAIN_ID ?? '31337'),
    rpcUrl: process.env.KEYRING_RPC_URL ?? '',
    bundlerUrl: process.env.KEYRING_BUNDLER_URL ?? '',
    entryPoint: envAddress(process.env.KEYRING_ENTRY_POINT, 'KEYRING_ENTRY_POINT'),
    factory: envAddress(process.env.KEYRING_FACTORY, 'KEYRING_FACTORY'),
    paymasterUrl: process.env.KEYRING_PAYMASTER_URL ? process.env.KEYRING_PAYMASTER_URL : null,
  };
}

/**
 * `eip155:<decimal>` -> chain id; anything else is refused naming `field`. A hex reference
 * (`eip155:0x7a69`) is read too: MetaMask's bridge builds the scope of typed data from
 * `domain.chainId` as given, and dapps often give it in hex.
 */
export function chainIdOfScope(scope: unknown, field: string): number {
  if (typeof scope === 'string' && /^eip155:0x0*[1-9a-fA-F][0-9a-fA-F]{0,12}$/u.test(scope)) {
    return Number(scope.slice('eip155:'.length));
  }
  if (typeof scope !== 'string' || !/^eip155:[1-9][0-9]{0,15}$/u.test(scope)) {
    throw invalidParams(field, `must be a CAIP-2 EVM chain such as "eip155:1", got ${show(scope)}`);
  }
  return Number(scope.slice('eip155:'.length));
}

export function scopeOf(chainId: number): `eip155:${number}` {
  return `eip155:${chainId}`;
}

/** A short, safe rendering of a caller's value for an error message. */
export function show(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'bigint' ? value.toString() : (JSON.stringify(value) ?? String(value));
  } catch {
    text = typeof value;
  }
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}
