/** Pure modules of the snap, tested directly (no snap installed). */
import { METHODS } from '../src/methods';
import { normalizeChainId } from '../src/starknet/networks';
import { createDispatcher } from '../src/rpc/dispatcher';
import { FIELD_PRIME, parseFelt } from '../src/starknet/felt';
import { migrateState } from '../src/state/migrations';
import { Mutex } from '../src/mutex';
import { createInitialState, STATE_VERSION } from '../src/state/schema';
import { MAINNET, TESTNET } from './harness/snap';

describe('Mutex', () => {
  it('runs holders one at a time, in order, and survives a failing holder', async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    const hold = (name: string, fail = false) =>
      mutex.runExclusive(async () => {
        log.push(`${name}:start`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`${name}:end`);
        if (fail) {
          throw new Error(name);
        }
        return name;
      });
    const results = await Promise.allSettled([hold('a'), hold('b', true), hold('c')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
  });
});

describe('migrateState', () => {
  it('starts from the initial state when nothing is stored', () => {
    expect(migrateState(null)).toEqual(createInitialState());
    expect(createInitialState().erc20Tokens[MAINNET].map((token) => token.symbol)).toEqual([
      'ETH',
      'STRK',
    ]);
  });

  it('upgrades unversioned state: canonical chain keys, defaults added, junk dropped', () => {
    const migrated = migrateState({
      currentChainId: 'SN_MAIN',
      accounts: { '0x0534E5F5345504F4C4941': [{ address: '0x1' }], nonsense: [{}] },
      erc20Tokens: { [TESTNET]: [] },
    });
    expect(migrated.version).toBe(STATE_VERSION);
    expect(migrated.currentChainId).toBe(MAINNET);
    expect(Object.keys(migrated.accounts)).toEqual([TESTNET]);
    expect(migrated.erc20Tokens[TESTNET]).toEqual([]);
    expect(migrated.erc20Tokens[MAINNET]).toHaveLength(2);
    expect(migrated.transactions).toEqual({});
  });

  it('keeps current state as it is and refuses state from a newer snap', () => {
    const current = createInitialState();
    expect(migrateState(current)).toEqual(current);
    expect(() => migrateState({ ...current, version: STATE_VERSION + 1 })).toThrow(/newer/u);
  });
});

describe('chain IDs and felts', () => {
  it('normalises chain IDs', () => {
    expect(normalizeChainId('0x0534E5F4D41494E')).toBe(MAINNET);
    expect(normalizeChainId('SN_SEPOLIA')).toBe(TESTNET);
    expect(normalizeChainId('mainnet')).toBeUndefined();
  });

  it('parses felts below the field prime only', () => {
    expect(parseFelt('0x10')).toBe(16n);
    expect(parseFelt('16')).toBe(16n);
    expect(parseFelt(16)).toBe(16n);
    expect(parseFelt(FIELD_PRIME - 1n)).toBe(FIELD_PRIME - 1n);
    expect(parseFelt(`0x${FIELD_PRIME.toString(16)}`)).toBeUndefined();
    expect(parseFelt(-1)).toBeUndefined();
    expect(parseFelt(2 ** 60)).toBeUndefined();
    expect(parseFelt('0x')).toBeUndefined();
    expect(parseFelt('1e5')).toBeUndefined();
  });
});

describe('method table', () => {
  it('answers to exactly the SPEC 4.1 methods (and getDeploymentData), each with both prefixes', () => {
    const specMethods = [
      'addErc20Token',
      'createAccount',
      'declareContract',
      'displayPrivateKey',
      'estimateAccountDeployFee',
      'estimateFee',
      'executeTxn',
      'extractPublicKey',
      'getCurrentNetwork',
      // Not in SPEC 4.1: the wallet API's wallet_deploymentData (packages/client) needs it.
      'getDeploymentData',
      'getErc20TokenBalance',
      'getTransaction',
      'getTransactions',
      'getTransactionStatus',
      'recoverAccounts',
      'signDeclareTransaction',
      'signMessage',
      'signTransaction',
      'switchNetwork',
      'verifySignedMessage',
    ];
    const expected = specMethods.flatMap((name) => [`l2_${name}`, `starkNet_${name}`]);
    expect([...createDispatcher(METHODS).methodNames].sort()).toEqual(expected.sort());
  });
});
