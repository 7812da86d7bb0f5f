/**
 * Independent reference code for the tests: keys, addresses and signature checks computed with
 * key-tree and @scure/starknet only, never with the snap's modules.
 */
import { BIP44CoinTypeNode, getBIP44AddressKeyDeriver } from '@metamask/key-tree';
import { installSnap } from '@metamask/snaps-jest';
import type { JsonRpcParams } from '@metamask/snaps-sdk';
import type {
  SnapAlertInterface,
  SnapConfirmationInterface,
  SnapInterface,
} from '@metamask/snaps-simulation';
import {
  computeHashOnElements,
  getPublicKey,
  getStarkKey,
  grindKey,
  pedersen,
  Signature,
  verify,
} from '@scure/starknet';

export const DEFAULT_SRP = 'test test test test test test test test test test test ball';
export const OTHER_SRP =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

export const MAINNET = '0x534e5f4d41494e';
export const TESTNET = '0x534e5f5345504f4c4941';
export const ARGENT_CLASS_HASH =
  '0x029927c8af6bccf3f6fda035981e765a7bdbf18a2dc0d630494f8758aa908e2b';

/** felt of the ASCII string 'STARKNET_CONTRACT_ADDRESS'. */
const CONTRACT_ADDRESS_PREFIX = `0x${Buffer.from('STARKNET_CONTRACT_ADDRESS').toString('hex')}`;
const L2_ADDRESS_UPPER_BOUND = 2n ** 251n - 256n;

export type ExpectedAccount = {
  index: number;
  privateKey: string;
  publicKey: string;
  address: string;
};

export function hex(value: bigint | string): string {
  return `0x${BigInt(value).toString(16)}`;
}

export function pad(value: bigint | string): string {
  return `0x${BigInt(value).toString(16).padStart(64, '0')}`;
}

/** Starknet's contract address formula, with @scure/starknet's Pedersen. */
export function contractAddress(
  salt: string,
  classHash: string,
  constructorCalldata: string[],
  deployer = '0x0',
): string {
  const calldataHash = BigInt(computeHashOnElements(constructorCalldata) as string | bigint);
  const raw = computeHashOnElements([
    CONTRACT_ADDRESS_PREFIX,
    deployer,
    salt,
    classHash,
    calldataHash,
  ]) as string | bigint;
  return pad(BigInt(raw) % L2_ADDRESS_UPPER_BOUND);
}

export async function expectedAccount(srp: string, index: number): Promise<ExpectedAccount> {
  const coinType = await BIP44CoinTypeNode.fromDerivationPath([
    `bip39:${srp}`,
    `bip32:44'`,
    `bip32:9004'`,
  ]);
  const deriver = await getBIP44AddressKeyDeriver(coinType);
  const node = await deriver(index);
  if (!node.privateKey) {
    throw new Error('no private key');
  }
  const privateKey = hex(`0x${grindKey(node.privateKey)}`);
  const publicKey = hex(getStarkKey(privateKey));
  return {
    index,
    privateKey,
    publicKey,
    address: contractAddress(publicKey, ARGENT_CLASS_HASH, [publicKey, '0x0']),
  };
}

/** Verifies [r, s] over `messageHash` with @scure/starknet and the account's full public key. */
export function verifyWithScure(
  account: ExpectedAccount,
  messageHash: string,
  signature: string[],
): boolean {
  const [r, s] = signature.map((value) => BigInt(value));
  return verify(new Signature(r, s), hex(messageHash), getPublicKey(account.privateKey, false));
}

export { pedersen };

type SnapInstance = Awaited<ReturnType<typeof installSnap>>;

/** A snap with accounts created at the given indexes (deploy false, Testnet). */
export async function snapWithAccounts(indexes: number[], srp?: string): Promise<SnapInstance> {
  const snap = await (srp
    ? installSnap({ options: { secretRecoveryPhrase: srp } })
    : installSnap());
  for (const addressIndex of indexes) {
    const response = await snap.request({ method: 'l2_createAccount', params: { addressIndex } });
    if (!('result' in response.response)) {
      throw new Error(`createAccount failed: ${JSON.stringify(response.response)}`);
    }
  }
  return snap;
}

export type RpcResponse = {
  result?: unknown;
  error?: { code: number; message: string; stack?: string };
};

export function responseOf(value: { response: unknown }): RpcResponse {
  return value.response as RpcResponse;
}

/** Asserts an error response with the given code, and a message matching `message`. */
export function expectError(
  value: { response: unknown },
  code: number,
  message?: RegExp | string,
): void {
  const response = responseOf(value);
  expect(response.result).toBeUndefined();
  expect(response.error?.code).toBe(code);
  expect(response.error?.stack ?? '').toBe('');
  if (message) {
    expect(response.error?.message).toMatch(message);
  }
}

export function resultOf<T>(value: { response: unknown }): T {
  const response = responseOf(value);
  if (response.error) {
    throw new Error(`unexpected error ${JSON.stringify(response.error)}`);
  }
  return response.result as T;
}

/** All text in a dialog's JSX tree, for checking what the user was shown. */
export function dialogText(content: unknown): string {
  const parts: string[] = [];
  const walk = (node: unknown): void => {
    if (node === null || node === undefined || typeof node === 'boolean') {
      return;
    }
    if (typeof node === 'string' || typeof node === 'number') {
      parts.push(String(node));
      return;
    }
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (typeof node === 'object') {
      const { props } = node as { props?: Record<string, unknown> };
      if (props) {
        for (const [key, value] of Object.entries(props)) {
          if (key === 'children') {
            walk(value);
          } else if (typeof value === 'string') {
            parts.push(value);
          }
        }
      }
    }
  };
  walk(content);
  return parts.join('\n');
}

/** A confirmation dialog (asserted), with its ok/cancel buttons. */
export function asConfirmation(ui: SnapInterface): SnapConfirmationInterface {
  expect(ui.type).toBe('confirmation');
  return ui as SnapConfirmationInterface;
}

/** An alert dialog (asserted). */
export function asAlert(ui: SnapInterface): SnapAlertInterface {
  expect(ui.type).toBe('alert');
  return ui as SnapAlertInterface;
}

/** Params as JSON, the way a dapp sends them: members set to undefined are left out. */
export function jsonParams(value: unknown): JsonRpcParams {
  return JSON.parse(JSON.stringify(value)) as JsonRpcParams;
}
