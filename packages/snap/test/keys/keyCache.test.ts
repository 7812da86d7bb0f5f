/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * The in-memory private-key cache (src/keys), tested directly: no snap installed. MetaMask's
 * snap_getBip44Entropy is answered with the coin-type node key-tree derives from the test
 * phrase, so the keys are the real ones (checked against helpers' independent derivation).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { BIP44CoinTypeNode } from '@metamask/key-tree';

import { DEFAULT_SRP, expectedAccount } from '../harness/snap';

type KeysModule = typeof import('../../src/keys');

let entropyRequests = 0;
let failEntropy = false;

beforeAll(async () => {
  const coinType = await BIP44CoinTypeNode.fromDerivationPath([
    `bip39:${DEFAULT_SRP}`,
    `bip32:44'`,
    `bip32:9004'`,
  ]);
  const coinTypeNode = coinType.toJSON();
  (globalThis as unknown as { snap: unknown }).snap = {
    request: async ({ method }: { method: string }) => {
      expect(method).toBe('snap_getBip44Entropy');
      entropyRequests += 1;
      if (failEntropy) {
        throw new Error('MetaMask refused');
      }
      return coinTypeNode;
    },
  };
});

afterAll(() => {
  delete (globalThis as unknown as { snap?: unknown }).snap;
});

/** A fresh copy of src/keys: an empty cache for each test. */
function freshKeys(): KeysModule {
  let keys: KeysModule | undefined;
  jest.isolateModules(() => {
    keys = jest.requireActual<KeysModule>('../../src/keys');
  });
  return keys!;
}

describe('private-key cache', () => {
  it('derives the real keys, and keeps at most MAX_CACHED_KEYS, dropping the least recently used', async () => {
    const keys = freshKeys();
    expect(keys.MAX_CACHED_KEYS).toBe(16);
    const first = new Map<number, Awaited<ReturnType<KeysModule['cachedAccountKey']>>>();
    for (let index = 0; index < keys.MAX_CACHED_KEYS; index += 1) {
      first.set(index, await keys.cachedAccountKey(index));
    }
    const expected = await expectedAccount(DEFAULT_SRP, 3);
    expect(first.get(3)?.privateKey).toBe(expected.privateKey);
    expect(BigInt(first.get(3)!.address)).toBe(BigInt(expected.address));

    // All 16 are kept: asking again gives the very same key objects, no new derivation.
    for (let index = 0; index < keys.MAX_CACHED_KEYS; index += 1) {
      expect(await keys.cachedAccountKey(index)).toBe(first.get(index));
    }
    // Index 0 is now the least recently used; touch it, so index 1 becomes the oldest.
    expect(await keys.cachedAccountKey(0)).toBe(first.get(0));
    // A 17th key evicts exactly one: index 1.
    await keys.cachedAccountKey(keys.MAX_CACHED_KEYS);
    expect(await keys.cachedAccountKey(0)).toBe(first.get(0));
    for (let index = 2; index < keys.MAX_CACHED_KEYS; index += 1) {
      expect(await keys.cachedAccountKey(index)).toBe(first.get(index));
    }
    // Index 1 was dropped: derived again (equal, but a new object), which evicts the oldest now.
    const again = await keys.cachedAccountKey(1);
    expect(again).not.toBe(first.get(1));
    expect(again).toEqual(first.get(1));
    // The coin-type node was asked once: the cache holds derived keys, never the entropy.
    expect(entropyRequests).toBeGreaterThanOrEqual(1);
  });

  it('keeps nothing derived with deriveAccountKey (scans and creations): they evict nothing', async () => {
    const keys = freshKeys();
    const kept = await keys.cachedAccountKey(0);
    const scanned = [];
    for (let index = 100; index < 100 + 2 * keys.MAX_CACHED_KEYS; index += 1) {
      scanned.push(await keys.deriveAccountKey(index));
    }
    // 32 uncached derivations did not push index 0 out of a 16-key cache.
    expect(await keys.cachedAccountKey(0)).toBe(kept);
    // And none of them was kept: the cache derives index 100 afresh.
    const hundred = await keys.cachedAccountKey(100);
    expect(hundred).not.toBe(scanned[0]);
    expect(hundred).toEqual(scanned[0]);
    // deriveAccountKey never returns a cached object either.
    expect(await keys.deriveAccountKey(0)).not.toBe(kept);
  });

  it('does not keep a failed derivation: the next request derives again', async () => {
    const keys = freshKeys();
    failEntropy = true;
    try {
      await expect(keys.cachedAccountKey(5)).rejects.toThrow('MetaMask refused');
    } finally {
      failEntropy = false;
    }
    const key = await keys.cachedAccountKey(5);
    expect(key.privateKey).toBe((await expectedAccount(DEFAULT_SRP, 5)).privateKey);
  });

  it('is reached only from flows/accounts.ts, after the account is found in the user state', () => {
    const srcDir = join(__dirname, '..', '..', 'src');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) {
          walk(path);
        } else if (/\.tsx?$/u.test(name)) {
          files.push(path);
        }
      }
    };
    walk(srcDir);
    const callers = files
      .filter((path) => !path.endsWith(join('keys', 'index.ts')))
      .filter((path) => readFileSync(path, 'utf8').includes('cachedAccountKey'))
      .map((path) => relative(srcDir, path));
    expect(callers).toEqual([join('flows', 'accounts.ts')]);
  });
});
