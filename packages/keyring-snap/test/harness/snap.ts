/**
 * Test helpers: drive the installed keyring snap through its real entry points and check every
 * signature with independent code (ethers and viem), never with the snap's modules.
 */
import { ANVIL_CHAIN_ID, answerDialog, type KeyringChainConfig } from '@l2wallet/testkit';
import type { Snap } from '@metamask/snaps-jest';
import { randomUUID } from 'crypto';
import { ethers } from 'ethers';
import {
  hashMessage,
  hashTypedData,
  recoverAddress,
  recoverMessageAddress,
  recoverTypedDataAddress,
  type Hex,
  type TypedDataDefinition,
} from 'viem';

export const SITE = 'http://localhost:8000';
export const METAMASK = 'metamask';
export const CHAIN_ID = ANVIL_CHAIN_ID;
export const SCOPE = `eip155:${CHAIN_ID}`;

export type KeyringAnswer = { result?: unknown; error?: { code: number; message: string } };

type Response = { response: KeyringAnswer };

/** A keyring call; `origin` defaults to MetaMask. */
export async function keyring(
  snap: Snap,
  method: string,
  params?: Record<string, unknown>,
  origin = METAMASK,
): Promise<KeyringAnswer> {
  const answer = (await snap.onKeyringRequest({
    origin,
    method,
    ...(params === undefined ? {} : { params: params as never }),
  })) as unknown as Response;
  return answer.response;
}

export function resultOf<T>(answer: KeyringAnswer): T {
  if (answer.error) {
    throw new Error(`keyring error ${answer.error.code}: ${answer.error.message}`);
  }
  return answer.result as T;
}

export type Account = {
  id: string;
  type: string;
  address: Hex;
  methods: string[];
  scopes: string[];
  options: Record<string, unknown>;
};

export async function createAccount(
  snap: Snap,
  options: Record<string, unknown>,
  origin = METAMASK,
): Promise<Account> {
  return resultOf<Account>(await keyring(snap, 'keyring_createAccount', { options }, origin));
}

/** keyring_submitRequest with the Keyring API's request shape, from MetaMask. */
export async function submit(
  snap: Snap,
  account: Account,
  method: string,
  params: unknown,
  options: { scope?: string; origin?: string } = {},
): Promise<KeyringAnswer> {
  return keyring(
    snap,
    'keyring_submitRequest',
    {
      id: randomUUID(),
      scope: options.scope ?? SCOPE,
      account: account.id,
      origin: 'https://dapp.example',
      request: { method, params },
    },
    options.origin ?? METAMASK,
  );
}

/** A synchronous result `{pending: false, result}`, unwrapped. */
export async function signed<T>(
  snap: Snap,
  account: Account,
  method: string,
  params: unknown,
  scope?: string,
): Promise<T> {
  const answer = resultOf<{ pending: boolean; result: T }>(
    await submit(snap, account, method, params, { scope }),
  );
  expect(answer.pending).toBe(false);
  return answer.result;
}

/** Recovers a personal_sign signature with ethers and with viem; both must agree. */
export async function recoverPersonal(messageHex: Hex, signature: Hex): Promise<string> {
  const byEthers = ethers.verifyMessage(ethers.getBytes(messageHex), signature);
  const byViem = await recoverMessageAddress({ message: { raw: messageHex }, signature });
  expect(byViem.toLowerCase()).toBe(byEthers.toLowerCase());
  expect(hashMessage({ raw: messageHex })).toBe(ethers.hashMessage(ethers.getBytes(messageHex)));
  return byEthers;
}

export type TypedData = {
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
};

export async function recoverTyped(data: TypedData, signature: Hex): Promise<string> {
  const { EIP712Domain: _domain, ...types } = data.types;
  const byEthers = ethers.verifyTypedData(
    data.domain as ethers.TypedDataDomain,
    types,
    data.message,
    signature,
  );
  const byViem = await recoverTypedDataAddress({
    ...(data as unknown as TypedDataDefinition),
    signature,
  });
  expect(byViem.toLowerCase()).toBe(byEthers.toLowerCase());
  expect(hashTypedData(data as unknown as TypedDataDefinition)).toBe(
    ethers.TypedDataEncoder.hash(data.domain as ethers.TypedDataDomain, types, data.message),
  );
  return byEthers;
}

/** Builds the signed transaction from {v, r, s} with ethers and recovers its sender. */
export async function recoverTransaction(
  tx: Record<string, unknown>,
  signature: { v: Hex; r: Hex; s: Hex },
): Promise<{ from: string; serialized: Hex }> {
  const type = Number(tx.type);
  const v = BigInt(signature.v);
  if (type !== 0) {
    expect([0n, 1n]).toContain(v);
  }
  const built = ethers.Transaction.from({
    type,
    chainId: BigInt(tx.chainId as string),
    nonce: Number(tx.nonce),
    to: (tx.to as string | null) ?? null,
    value: BigInt((tx.value as string | undefined) ?? 0),
    data: (tx.data as string | undefined) ?? '0x',
    gasLimit: BigInt(tx.gasLimit as string),
    ...(tx.gasPrice === undefined ? {} : { gasPrice: BigInt(tx.gasPrice as string) }),
    ...(tx.maxFeePerGas === undefined ? {} : { maxFeePerGas: BigInt(tx.maxFeePerGas as string) }),
    ...(tx.maxPriorityFeePerGas === undefined
      ? {}
      : { maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas as string) }),
    ...(tx.accessList === undefined ? {} : { accessList: tx.accessList as ethers.AccessList }),
    signature: ethers.Signature.from({
      r: signature.r,
      s: signature.s,
      v: type === 0 ? v : 27n + v,
    }),
  });
  const from = built.from as string;
  // viem, independently: the unsigned hash and the signature recover the same sender.
  const byViem = await recoverAddress({
    hash: built.unsignedHash as Hex,
    signature: { r: signature.r, s: signature.s, yParity: Number(type === 0 ? (v - 35n) % 2n : v) },
  });
  expect(byViem.toLowerCase()).toBe(from.toLowerCase());
  return { from, serialized: built.serialized as Hex };
}

/** Keyring events accepted by the simulation's getSnapKeyring hook (patches/). */
export function keyringEvents(): {
  snapId: string;
  method: string;
  params: Record<string, unknown>;
}[] {
  const store = (globalThis as Record<symbol, unknown>)[
    Symbol.for('snaps-simulation.snapKeyringEvents')
  ] as { snapId: string; method: string; params: Record<string, unknown> }[] | undefined;
  return store ?? [];
}

/** Approves (or rejects) the dialog a pending request shows; returns its text. */
export { answerDialog };

/**
 * keyring_setChainConfig from the site, its dialog approved: the user points the snap at a chain.
 */
export async function setChainConfig(snap: Snap, config: KeyringChainConfig): Promise<void> {
  const pending = snap.request({
    origin: SITE,
    method: 'keyring_setChainConfig',
    params: { ...config },
  });
  await answerDialog(pending, true);
  expect(await pending).toRespondWith(expect.objectContaining({ chainId: Number(config.chainId) }));
}
