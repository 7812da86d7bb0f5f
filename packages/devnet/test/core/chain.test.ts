import { poseidonHash, poseidonHashMany } from '@scure/starknet';
import { Chain } from '../../src/core/chain';
import { StarknetRpcError } from '../../src/core/errors';

// Block sealing and lookups; the commitments are recomputed here with @scure's Poseidon.

function rpcCode(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof StarknetRpcError ? error.code : undefined;
  }
  return undefined;
}

describe('Chain', () => {
  test('seal closes the pre-confirmed block with its commitments and opens the next', () => {
    const chain = new Chain(0x534e5f5345504f4c4941n, 1_000);
    expect(chain.pending).toMatchObject({ number: 0, parentHash: 0n, timestamp: 1_000 });
    const genesis = chain.seal(1_000, 1_005);
    // No transactions: the commitment is poseidon([]) chained to the parent hash.
    const root = poseidonHash(0n, poseidonHashMany([]));
    expect(genesis.newRoot).toBe(root);
    expect(genesis.hash).toBe(poseidonHash(root, (1_000n << 64n) + 0n));
    expect(chain.pending).toMatchObject({ number: 1, parentHash: genesis.hash, timestamp: 1_005 });
    const next = chain.seal(1_007, 1_007);
    expect(chain.latestBlock()).toBe(next);
    expect(next.parentHash).toBe(genesis.hash);
  });

  test('blocks by tag, number and hash; unknown ones are 24; unknown transactions 29', () => {
    const chain = new Chain(1n, 0);
    const first = chain.seal(0, 0);
    const second = chain.seal(5, 5);
    expect(chain.block('latest')).toBe(second);
    // Nothing accepted on L1 yet: the tag names no block.
    expect(rpcCode(() => chain.block('l1_accepted'))).toBe(24);
    expect(chain.acceptOnL1({ block_number: 0 })).toEqual([first.hash]);
    expect(chain.block('l1_accepted')).toBe(first);
    expect(chain.blockStatus(0)).toBe('ACCEPTED_ON_L1');
    expect(chain.blockStatus(1)).toBe('ACCEPTED_ON_L2');
    expect(chain.blockStatus(2)).toBe('PRE_CONFIRMED');
    expect(chain.block('pre_confirmed')).toBe(chain.pending);
    expect(chain.block({ block_number: 0 })).toBe(first);
    expect(chain.block({ block_hash: second.hash! })).toBe(second);
    expect(rpcCode(() => chain.block({ block_number: 2 }))).toBe(24);
    expect(rpcCode(() => chain.block({ block_hash: 0x1234n }))).toBe(24);
    expect(rpcCode(() => chain.getTransaction(0x99n))).toBe(29);
    expect(chain.hasTransaction(0x99n)).toBe(false);
  });

  test('blockInfo carries the chain id calls read from their tx info', () => {
    const chain = new Chain(0x5n, 42);
    expect(chain.blockInfo(chain.pending)).toMatchObject({
      blockNumber: 0,
      timestamp: 42,
      chainId: 0x5n,
    });
  });
});
