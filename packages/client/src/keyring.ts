/**
 * Dapp-side calls for the EVM keyring snap (packages/keyring-snap, SPEC Area B). Account
 * management goes to the snap with `wallet_invokeKeyring` (the site's origin is allowed); signing
 * goes through the wallet's own methods (`personal_sign`, ...), which MetaMask routes to the
 * snap's keyring as the origin `metamask`.
 */
import { toSnapError } from './errors';
import type { Eip1193Provider } from './provider';

export type Hex = `0x${string}`;

export interface KeyringAccount {
  id: string;
  type: 'eip155:eoa' | 'eip155:erc4337';
  address: Hex;
  methods: string[];
  scopes: string[];
  options: Record<string, unknown>;
}

export interface KeyringChainConfig {
  chainId: number;
  rpcUrl: string;
  bundlerUrl: string;
  entryPoint: Hex;
  factory: Hex;
  paymasterUrl: string | null;
}

export interface UserOperationDetails {
  callData: Hex;
  initCode: Hex;
  nonce: Hex;
  gasLimits: { callGasLimit: Hex; verificationGasLimit: Hex; preVerificationGas: Hex };
  dummySignature: Hex;
  dummyPaymasterAndData: Hex;
  bundlerUrl: string;
}

export type UserOperation = Record<
  | 'sender'
  | 'nonce'
  | 'initCode'
  | 'callData'
  | 'callGasLimit'
  | 'verificationGasLimit'
  | 'preVerificationGas'
  | 'maxFeePerGas'
  | 'maxPriorityFeePerGas'
  | 'paymasterAndData'
  | 'signature',
  Hex
>;

export interface TransactionIntent {
  to: Hex;
  value: Hex;
  data: Hex;
}

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

  personalSign(address: Hex, message: string): Promise<Hex> {
    const hex = `0x${Array.from(new TextEncoder().encode(message), (byte) =>
      byte.toString(16).padStart(2, '0'),
    ).join('')}`;
    return this.call('personal_sign', [hex, address]);
  }

  signTypedData(address: Hex, typedData: unknown): Promise<Hex> {
    return this.call('eth_signTypedData_v4', [address, typedData]);
  }

  signTransaction(transaction: Record<string, unknown>): Promise<{ v: Hex; r: Hex; s: Hex }> {
    return this.call('eth_signTransaction', [transaction]);
  }

  prepareUserOperation(sender: Hex, intents: TransactionIntent[]): Promise<UserOperationDetails> {
    return this.call('eth_prepareUserOperation', { from: sender, intents });
  }

  patchUserOperation(operation: UserOperation): Promise<Partial<UserOperation>> {
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
