/**
 * Starknet keys from the MetaMask secret: BIP-44 coin type 9004, path
 * m/44'/9004'/0'/0/{addressIndex}; the node's private key is ground onto the Stark curve
 * (grindKey) and the account is an Argent 0.3.1 account whose address follows from the key.
 *
 * An AccountKey holds the private key: pass it to signing code only. Nothing built from it may
 * reach a response, state, a log or an error message except `publicKey` and `address`.
 */
import { getBIP44AddressKeyDeriver, type JsonBIP44CoinTypeNode } from '@metamask/key-tree';
import { ARGENT_ACCOUNT_CLASS_HASH } from '@l2wallet/starknet-protocol';
import { ec, hash } from 'starknet';

import { formatAddress } from '../starknet/felt';

export const STARKNET_COIN_TYPE = 9004;

/** Argent account 0.3.1 (Cairo 1). */
export { ARGENT_ACCOUNT_CLASS_HASH };

export type AccountKey = {
  addressIndex: number;
  /** BIP-44 path string, e.g. m/44'/9004'/0'/0/3. */
  derivationPath: string;
  /** Stark private key (0x-hex). Secret. */
  privateKey: string;
  /** Stark public key (x coordinate, 0x-hex). */
  publicKey: string;
  /** Argent account address, 0x + 64 hex digits. */
  address: string;
  /** Deploy-account data for the chain methods. */
  addressSalt: string;
  constructorCalldata: string[];
  classHash: string;
};

export function derivationPathFor(addressIndex: number): string {
  return `m/44'/${STARKNET_COIN_TYPE}'/0'/0/${addressIndex}`;
}

/** Argent 0.3.1 constructor calldata: owner = public key, guardian = 0. */
export function accountConstructorCalldata(publicKey: string): string[] {
  return [publicKey, '0x0'];
}

/** Counterfactual address: deployer 0, salt = public key. */
export function computeAccountAddress(publicKey: string): string {
  const address = hash.calculateContractAddressFromHash(
    publicKey,
    ARGENT_ACCOUNT_CLASS_HASH,
    accountConstructorCalldata(publicKey),
    0,
  );
  return formatAddress(address);
}

export function starkKeyFromSeed(seed: string): { privateKey: string; publicKey: string } {
  const ground = ec.starkCurve.grindKey(seed);
  const privateKey = `0x${ground.replace(/^0x/u, '')}`;
  const publicKey = ec.starkCurve.getStarkKey(privateKey);
  return { privateKey, publicKey: `0x${BigInt(publicKey).toString(16)}` };
}

type AddressKeyDeriver = (addressIndex: number) => Promise<{ privateKey?: string }>;

let deriverPromise: Promise<AddressKeyDeriver> | undefined;

/**
 * The coin-type node is asked from MetaMask once per snap execution; the deriver keeps it in
 * memory only, never in state.
 */
async function getDeriver(): Promise<AddressKeyDeriver> {
  if (!deriverPromise) {
    deriverPromise = (async () => {
      const coinTypeNode: JsonBIP44CoinTypeNode = await snap.request({
        method: 'snap_getBip44Entropy',
        params: { coinType: STARKNET_COIN_TYPE },
      });
      return getBIP44AddressKeyDeriver(coinTypeNode, { account: 0, change: 0 });
    })();
    deriverPromise.catch(() => {
      deriverPromise = undefined;
    });
  }
  return deriverPromise;
}

/** Keys kept in memory at most; the least recently used goes first. */
export const MAX_CACHED_KEYS = 16;

/**
 * Keys of the user's own stored accounts are kept in memory for the life of the snap's
 * execution (never in state), at most MAX_CACHED_KEYS of them: a derivation (three BIP-32 steps,
 * grindKey, the Stark key and the address) costs more than everything else a signing request
 * does (bench/RESULTS.md, bench/snap). Only flows/accounts.ts calls this, after finding the
 * account in state; scans and creations derive uncached (deriveAccountKey), so no site can fill
 * memory with keys.
 */
const cachedKeys = new Map<number, Promise<AccountKey>>();

export async function cachedAccountKey(addressIndex: number): Promise<AccountKey> {
  let derived = cachedKeys.get(addressIndex);
  if (derived) {
    // Most recently used last: Map keeps insertion order.
    cachedKeys.delete(addressIndex);
  } else {
    derived = deriveUncached(addressIndex);
    derived.catch(() => cachedKeys.delete(addressIndex));
  }
  cachedKeys.set(addressIndex, derived);
  while (cachedKeys.size > MAX_CACHED_KEYS) {
    const oldest = cachedKeys.keys().next().value as number;
    cachedKeys.delete(oldest);
  }
  return derived;
}

/** The key at `addressIndex`, derived afresh and not kept. */
export async function deriveAccountKey(addressIndex: number): Promise<AccountKey> {
  return deriveUncached(addressIndex);
}

async function deriveUncached(addressIndex: number): Promise<AccountKey> {
  const deriver = await getDeriver();
  const node = await deriver(addressIndex);
  if (!node.privateKey) {
    throw new Error('Derived node has no private key');
  }
  const { privateKey, publicKey } = starkKeyFromSeed(node.privateKey);
  return {
    addressIndex,
    derivationPath: derivationPathFor(addressIndex),
    privateKey,
    publicKey,
    address: computeAccountAddress(publicKey),
    addressSalt: publicKey,
    constructorCalldata: accountConstructorCalldata(publicKey),
    classHash: ARGENT_ACCOUNT_CLASS_HASH,
  };
}
