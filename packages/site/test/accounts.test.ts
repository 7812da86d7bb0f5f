import type { AccountRecord, StarknetSnapClient } from '@l2wallet/client';
import { STARKNET_TESTNET } from '@l2wallet/testkit';
import {
  accountFromResult,
  createAccount,
  mergeAccounts,
  nextAccountIndex,
  pickSelected,
  recoverAccounts,
  type Account,
} from '../src/utils/accounts';

const a0: Account = { address: '0xa0', addressIndex: 0 };
const a1: Account = { address: '0xa1', addressIndex: 1 };
const a2: Account = { address: '0xa2', addressIndex: 2 };

function record(address: string, addressIndex: number, deployTxnHash = ''): AccountRecord {
  return {
    address,
    addressIndex,
    publicKey: '0xpk',
    addressSalt: '0xpk',
    deployTxnHash,
    derivationPath: `m/44'/9004'/0'/0/${addressIndex}`,
    chainId: STARKNET_TESTNET,
  };
}

describe('the accounts module', () => {
  it('merges lists by address in index order, the newer entry winning', () => {
    const merged = mergeAccounts([a2, a0], [{ ...a0, deployed: true }, a1]);
    expect(merged).toEqual([{ ...a0, deployed: true }, a1, a2]);
    expect(mergeAccounts([], [])).toEqual([]);
  });

  it('gives a new account the index after the highest listed', () => {
    expect(nextAccountIndex([])).toBe(0);
    expect(nextAccountIndex([a0, a2])).toBe(3);
  });

  it('keeps the selection when listed, else the one remembered for the chain, else the first', () => {
    expect(pickSelected([a0, a1], '0xa1', '0xa0')).toBe('0xa1');
    expect(pickSelected([a0, a1], '0xgone', '0xa1')).toBe('0xa1');
    expect(pickSelected([a0, a1], '', '0xgone')).toBe('0xa0');
    expect(pickSelected([], '0xa1', '0xa1')).toBe('');
  });

  it("reads the recovery scan on the page's chain and marks deployed accounts", async () => {
    const calls: unknown[] = [];
    const client = {
      recoverAccounts: async (params: unknown) => {
        calls.push(params);
        return [record('0xa0', 0, '0xdeploy'), record('0xa1', 1)];
      },
    } as unknown as StarknetSnapClient;
    const { accounts, records } = await recoverAccounts(client, STARKNET_TESTNET);
    expect(calls).toEqual([
      { startScanIndex: 0, maxScanned: 5, maxMissed: 1, chainId: STARKNET_TESTNET },
    ]);
    expect(accounts).toEqual([
      { address: '0xa0', addressIndex: 0, deployed: true },
      { address: '0xa1', addressIndex: 1, deployed: false },
    ]);
    expect(records).toHaveLength(2);
  });

  it('creates an account at the index asked, on the chain asked', async () => {
    const calls: unknown[] = [];
    const client = {
      createAccount: async (params: unknown) => {
        calls.push(params);
        return { address: '0xa3', transaction_hash: '0xd3' };
      },
    } as unknown as StarknetSnapClient;
    const { account, result } = await createAccount(client, {
      addressIndex: 3,
      deploy: true,
      chainId: STARKNET_TESTNET,
    });
    expect(calls).toEqual([{ addressIndex: 3, deploy: true, chainId: STARKNET_TESTNET }]);
    expect(account).toEqual({ address: '0xa3', addressIndex: 3, deployed: true });
    expect(result).toEqual({ address: '0xa3', transaction_hash: '0xd3' });
  });

  it("reads the account a method card's l2_createAccount answered, and nothing from other answers", () => {
    expect(accountFromResult({ addressIndex: 4 }, { address: '0xa4', addressIndex: 4 })).toEqual({
      address: '0xa4',
      addressIndex: 4,
    });
    expect(accountFromResult(undefined, { address: '0xa0' })).toEqual(a0);
    expect(accountFromResult({}, null)).toBeNull();
    expect(accountFromResult({}, { address: '' })).toBeNull();
    expect(accountFromResult({}, ['0x1', '0x2'])).toBeNull();
  });
});
