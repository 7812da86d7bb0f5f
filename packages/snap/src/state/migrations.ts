/**
 * Brings any stored state up to STATE_VERSION. A migration is keyed by the version it upgrades
 * from. Version 0 is "no version field": state written before the schema was versioned, or
 * nothing at all.
 */
import { findNetwork, normalizeChainId } from '../starknet/networks';
import { createInitialState, defaultTokens, STATE_VERSION, type SnapState } from './schema';

type StoredState = Record<string, unknown>;
type Migration = (state: StoredState) => StoredState;

function isRecord(value: unknown): value is StoredState {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const HEX = /^0x[0-9a-fA-F]{1,64}$/u;

function isHex(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value);
}

/** Entries later code reads with BigInt(...) must have that field as hex: junk is dropped. */
function validToken(entry: unknown): boolean {
  return isRecord(entry) && isHex(entry.address);
}

function validAccount(entry: unknown): boolean {
  return (
    isRecord(entry) &&
    isHex(entry.address) &&
    typeof entry.addressIndex === 'number' &&
    Number.isInteger(entry.addressIndex) &&
    entry.addressIndex >= 0
  );
}

function validTransaction(entry: unknown): boolean {
  return isRecord(entry) && isHex(entry.txnHash);
}

const migrations: Record<number, Migration> = {
  // v0 -> v1: keep whatever per-chain lists exist, make sure every list is present and every
  // known chain has its ETH/STRK defaults.
  0: (state) => {
    const initial = createInitialState();
    const chainKeyed = (
      value: unknown,
      valid: (entry: unknown) => boolean,
    ): Record<string, unknown[]> => {
      const result: Record<string, unknown[]> = {};
      if (isRecord(value)) {
        for (const [chainId, list] of Object.entries(value)) {
          const canonical = normalizeChainId(chainId);
          if (canonical && Array.isArray(list)) {
            result[canonical] = list.filter(valid);
          }
        }
      }
      return result;
    };
    const tokens = chainKeyed(state.erc20Tokens, validToken);
    for (const chainId of Object.keys(initial.erc20Tokens)) {
      tokens[chainId] ??= defaultTokens(chainId);
    }
    // Only a network the snap knows (old state may name Goerli, which is gone): else Testnet.
    const current =
      typeof state.currentChainId === 'string' ? findNetwork(state.currentChainId) : undefined;
    return {
      version: 1,
      currentChainId: current?.chainId ?? initial.currentChainId,
      accounts: chainKeyed(state.accounts, validAccount),
      transactions: chainKeyed(state.transactions, validTransaction),
      erc20Tokens: tokens,
    };
  },
  // v1 -> v2: per-site grants. Accounts stored before grants existed belong to no site yet: the
  // first site that uses one asks the user (never assumed).
  1: (state) => ({ ...state, version: 2, grants: {} }),
  // v2 -> v3: a watched token's symbol and decimals come from its contract. Those stored before
  // came from whichever site added them: ETH and STRK get their known values back, any other is
  // kept but marked unchecked (not used to format amounts) until a site adds it again.
  2: (state) => {
    const tokens: Record<string, unknown[]> = {};
    for (const [chainId, list] of Object.entries(
      isRecord(state.erc20Tokens) ? state.erc20Tokens : {},
    )) {
      const preloaded = defaultTokens(chainId);
      tokens[chainId] = (Array.isArray(list) ? list : []).map((entry) => {
        const token = entry as { address: string };
        const known = preloaded.find(
          (candidate) => BigInt(candidate.address) === BigInt(token.address),
        );
        return known
          ? { ...token, symbol: known.symbol, decimals: known.decimals }
          : { ...token, unchecked: true };
      });
    }
    return { ...state, version: 3, erc20Tokens: tokens };
  },
};

export function migrateState(stored: unknown): SnapState {
  if (!isRecord(stored)) {
    return createInitialState();
  }
  let state = stored;
  let version = typeof state.version === 'number' ? state.version : 0;
  if (version > STATE_VERSION) {
    throw new Error(`State version ${version} is newer than this snap (${STATE_VERSION})`);
  }
  while (version < STATE_VERSION) {
    const migration = migrations[version];
    if (!migration) {
      throw new Error(`No state migration from version ${version}`);
    }
    state = migration(state);
    version += 1;
  }
  return state as unknown as SnapState;
}
