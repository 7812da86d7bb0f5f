/**
 * Dapp-side calls for the EVM keyring snap (packages/keyring-snap, docs/interface/keyring.md).
 * Account management goes to the snap with `wallet_invokeKeyring` (the site's origin is allowed);
 * signing goes through the wallet's own methods (`personal_sign`, ...), which MetaMask routes to
 * the snap's keyring as the origin `metamask`.
 */
import type {
  EthBaseTransaction,
  EthBaseUserOperation,
  EthEoaAccount,
  EthErc4337Account,
  EthUserOperation,
  EthUserOperationPatch,
} from '@metamask/keyring-api';

import { toSnapError } from './errors';
import type { Eip1193Provider } from './provider';

export type Hex = `0x${string}`;

// The request and answer shapes of MetaMask's Keyring API are its own types (type-only imports:
// nothing of @metamask/keyring-api is bundled into a dapp).

/** An account of the keyring snap: an EOA or an ERC-4337 SimpleAccount. */
export type KeyringAccount = EthEoaAccount | EthErc4337Account;

export interface KeyringChainConfig {
  chainId: number;
  rpcUrl: string;
  bundlerUrl: string;
  entryPoint: Hex;
  factory: Hex;
  paymasterUrl: string | null;
}

/**
 * What eth_prepareUserOperation answers; `gasLimits` is left out when the bundler could not
 * estimate (the wallet then asks the bundler itself).
 */
export type UserOperationDetails = EthBaseUserOperation;

/** An ERC-4337 v0.6 user operation. */
export type UserOperation = EthUserOperation;

/** What eth_patchUserOperation answers: the fields to change before signing. */
export type UserOperationPatch = EthUserOperationPatch;

/** One call of a user operation. */
export type TransactionIntent = EthBaseTransaction;

export class KeyringClient {
  constructor(
    private readonly provider: Eip1193Provider,
    readonly snapId: string,
  ) {}

  private async call<T>(method: string, params?: unknown): Promise<T> {
    try {
      return (await this.provider.request({ method, params })) as T;
    } catch (error) {
      throw toSnapError(error);
    }
  }

  /** Installs (or connects) the keyring snap. */
  async connect(): Promise<void> {
    await this.call('wallet_requestSnaps', { [this.snapId]: {} });
  }

  private keyring<T>(method: string, params?: Record<string, unknown>): Promise<T> {
    return this.call<T>('wallet_invokeKeyring', {
      snapId: this.snapId,
      request: params === undefined ? { method } : { method, params },
    });
  }

  listAccounts(): Promise<KeyringAccount[]> {
    return this.keyring('keyring_listAccounts');
  }

  createAccount(options: {
    type: KeyringAccount['type'];
    privateKey?: Hex;
  }): Promise<KeyringAccount> {
    return this.keyring('keyring_createAccount', { options });
  }

  deleteAccount(id: string): Promise<null> {
    return this.keyring('keyring_deleteAccount', { id });
  }

  getChainConfigs(): Promise<KeyringChainConfig[]> {
    return this.call('wallet_invokeSnap', {
      snapId: this.snapId,
      request: { method: 'keyring_getChainConfigs' },
    });
  }

  personalSign(address: string, message: string): Promise<Hex> {
    const hex = `0x${Array.from(new TextEncoder().encode(message), (byte) =>
      byte.toString(16).padStart(2, '0'),
    ).join('')}`;
    return this.call('personal_sign', [hex, address]);
  }

  signTypedData(address: string, typedData: unknown): Promise<Hex> {
    return this.call('eth_signTypedData_v4', [address, typedData]);
  }

  signTransaction(transaction: Record<string, unknown>): Promise<{ v: Hex; r: Hex; s: Hex }> {
    return this.call('eth_signTransaction', [transaction]);
  }

  prepareUserOperation(
    sender: string,
    intents: TransactionIntent[],
  ): Promise<UserOperationDetails> {
    return this.call('eth_prepareUserOperation', { from: sender, intents });
  }

  patchUserOperation(operation: UserOperation): Promise<UserOperationPatch> {
    return this.call('eth_patchUserOperation', [operation]);
  }

  signUserOperation(operation: UserOperation, entryPoint: Hex): Promise<Hex> {
    return this.call('eth_signUserOperation', [operation, entryPoint]);
  }
}

/** One JSON-RPC call to a bundler (eth_sendUserOperation, eth_getUserOperationReceipt, ...). */
export async function bundlerRequest<T>(
  url: string,
  method: string,
  params: unknown[],
): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error) {
    throw toSnapError(body.error);
  }
  return body.result as T;
}
