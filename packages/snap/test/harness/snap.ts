/**
 * Independent reference code for the tests: keys, addresses and signature checks computed with
 * key-tree and @scure/starknet only, never with the snap's modules.
 */
import { ARGENT_ACCOUNT_CLASS_HASH, STARKNET_MAINNET, STARKNET_TESTNET } from '@l2wallet/testkit';
import { BIP44CoinTypeNode, getBIP44AddressKeyDeriver } from '@metamask/key-tree';
import { installSnap } from '@metamask/snaps-jest';
import type { Json, JsonRpcParams } from '@metamask/snaps-sdk';
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

import { createInitialState } from '../../src/state/schema';

export const DEFAULT_SRP = 'test test test test test test test test test test test ball';
export const OTHER_SRP =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

export const MAINNET = STARKNET_MAINNET;
export const TESTNET = STARKNET_TESTNET;
export const ARGENT_CLASS_HASH = ARGENT_ACCOUNT_CLASS_HASH;

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

/**
 * The record the snap stores for `account` on `chainId` (docs/interface/snap.md#results), for tests
 * that seed state.
 */
export function accountRecordOf(account: ExpectedAccount, chainId: string) {
  return {
    address: account.address,
    addressIndex: account.index,
    publicKey: account.publicKey,
    addressSalt: account.publicKey,
    deployTxnHash: '',
    derivationPath: `m/44'/9004'/0'/0/${account.index}`,
    chainId,
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

/** The origin snaps-jest sends requests from when a test gives none. */
export const TEST_ORIGIN = 'https://metamask.io';
/** A dapp origin for the tests of what a site is shown and allowed. */
export const DAPP_ORIGIN = 'https://dapp.example';

/** A pending snaps-jest request: awaitable, with the dialog it opens. */
type PendingRequest = PromiseLike<{ response: unknown }> & {
  getInterface: () => Promise<SnapInterface>;
};

/**
 * Awaits a request, approving every dialog it opens on the way (the grant dialog of a site's
 * first account, then the method's own). For tests about something else than the dialogs.
 */
export async function approvingDialogs<T extends { response: unknown }>(
  pending: PromiseLike<T> & { getInterface: () => Promise<SnapInterface> },
): Promise<T> {
  let settled = false;
  const done = Promise.resolve(pending).finally(() => {
    settled = true;
  });
  const approveNext = async (): Promise<void> => {
    while (!settled) {
      const ui = await Promise.race([pending.getInterface(), done.then(() => undefined)]);
      if (!ui || settled) {
        return;
      }
      await (ui as SnapConfirmationInterface).ok();
    }
  };
  await Promise.all([done, approveNext()]);
  return done;
}

/**
 * Snap state (the current schema) in which `origin` was already granted `indexes`, as if the user
 * had approved its grant dialogs before. For tests of something else than grants, and where
 * several requests run at once (snaps-simulation shows one dialog at a time).
 */
export function grantedState(
  indexes: readonly number[] = Array.from({ length: 64 }, (_, index) => index),
  origin = TEST_ORIGIN,
): Record<string, Json> {
  const state = createInitialState();
  state.grants[origin] = { origin, grantedAt: 0, addressIndexes: [...indexes] };
  return state as unknown as Record<string, Json>;
}

/** installSnap with `grantedState` (and the phrase, when given). */
export async function installGranted({
  srp,
  indexes,
  snapId,
}: { srp?: string; indexes?: number[]; snapId?: string } = {}): Promise<SnapInstance> {
  const options = {
    state: grantedState(indexes),
    ...(srp ? { secretRecoveryPhrase: srp } : {}),
  };
  return snapId ? installSnap(snapId as never, { options }) : installSnap({ options });
}

/** What snaps-simulation's installSnap returns beside snaps-jest's helpers: its store. */
type SimulationInstance = SnapInstance & {
  store: { getState: () => { state: { encrypted: string | null } } };
};

/**
 * installSnap over `state`, and what the snap stored (snap_manageState) since, as MetaMask keeps
 * it while an idle snap is stopped: installed again over it, the same snap runs as a fresh
 * execution over its own records. snaps-jest's installSnap leaves the simulation's store out, so
 * this asks the environment snaps-jest sets up (the global `snapsEnvironment`) for the instance.
 */
export async function installKeepingState(
  snapId: string,
  state: Record<string, Json> = grantedState(),
): Promise<{ snap: SnapInstance; stored: () => Record<string, Json> }> {
  const { snapsEnvironment } = globalThis as unknown as {
    snapsEnvironment: {
      installSnap: (id: string, options: object) => Promise<SimulationInstance>;
    };
  };
  const instance = await snapsEnvironment.installSnap(snapId, { options: { state } });
  return {
    snap: instance,
    stored: () =>
      JSON.parse(instance.store.getState().state.encrypted ?? '{}') as Record<string, Json>,
  };
}

/** A snap with accounts created at the given indexes (deploy false, Testnet), grants approved. */
export async function snapWithAccounts(indexes: number[], srp?: string): Promise<SnapInstance> {
  const snap = await (srp
    ? installSnap({ options: { secretRecoveryPhrase: srp } })
    : installSnap());
  for (const addressIndex of indexes) {
    const response = await createGrantedAccount(snap, addressIndex);
    if (!('result' in (response.response as object))) {
      throw new Error(`createAccount failed: ${JSON.stringify(response.response)}`);
    }
  }
  return snap;
}

/**
 * l2_createAccount at `addressIndex` from `origin`, approving the grant dialog the snap shows the
 * first time a site asks for that index.
 */
export async function createGrantedAccount(
  snap: {
    request: (request: { origin?: string; method: string; params?: JsonRpcParams }) => unknown;
  },
  addressIndex?: number,
  origin = TEST_ORIGIN,
): Promise<{ response: unknown }> {
  const pending = snap.request({
    origin,
    method: 'l2_createAccount',
    params: addressIndex === undefined ? {} : { addressIndex },
  }) as PendingRequest;
  return approvingDialogs(pending);
}

/** A dapp with a port, as its dialogs name it (host and port), and its origin. */
export const PORTED_SITE = 'dapp.example:8443';
export const PORTED_SITE_ORIGIN = `https://${PORTED_SITE}`;

/** A snap in which `origin` created (and so was granted) the accounts at `indexes`. */
export async function snapForSite(
  indexes: number[] = [0],
  origin = PORTED_SITE_ORIGIN,
): Promise<SnapInstance> {
  const snap = await installSnap();
  for (const index of indexes) {
    resultOf(await createGrantedAccount(snap, index, origin));
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
export { dialogText } from '@l2wallet/testkit';

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
