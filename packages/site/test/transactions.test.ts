import type { TransactionRecord } from '@l2wallet/client';
import { STARKNET_MAINNET, STARKNET_TESTNET } from '@l2wallet/testkit';
import {
  addSent,
  isPending,
  mergeRecords,
  transactionHashOf,
  type TrackedTx,
} from '../src/utils/transactions';

function record(txnHash: string, fields: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    txnHash,
    txnType: 'invoke',
    senderAddress: '0xa0',
    contractAddress: '0xc0',
    contractFuncName: 'transfer',
    contractCallData: [],
    status: 'ACCEPTED_ON_L2',
    failureReason: null,
    eventIds: [],
    timestamp: 1,
    chainId: STARKNET_TESTNET,
    ...fields,
  };
}

describe('tracked transactions', () => {
  it('finds the transaction hash in a snap answer, and none elsewhere', () => {
    expect(transactionHashOf({ transaction_hash: '0xabc', address: '0x1' })).toBe('0xabc');
    expect(transactionHashOf({ transaction_hash: '' })).toBeNull();
    expect(transactionHashOf(['0x1', '0x2'])).toBeNull();
    expect(transactionHashOf('0xabc')).toBeNull();
    expect(transactionHashOf(null)).toBeNull();
  });

  it('lists a sent transaction first, pending on the chain it was sent on, and only once', () => {
    const one = addSent([], '0x1', 'Deploy account #0', STARKNET_TESTNET);
    const two = addSent(one, '0x2', 'executeTxn', STARKNET_MAINNET);
    expect(two.map((tx) => [tx.hash, tx.chainId, tx.status])).toEqual([
      ['0x2', STARKNET_MAINNET, 'RECEIVED'],
      ['0x1', STARKNET_TESTNET, 'RECEIVED'],
    ]);
    expect(two.every(isPending)).toBe(true);
    expect(addSent(two, '0x1', 'again', STARKNET_TESTNET)).toBe(two);
  });

  it("merges the snap's records: its status wins, the page's label stays", () => {
    const sent: TrackedTx[] = addSent([], '0x1', 'Deploy account #0', STARKNET_TESTNET);
    const merged = mergeRecords(
      sent,
      [
        record('0x1', { status: 'ACCEPTED_ON_L2', contractFuncName: '' }),
        record('0x2', { status: 'REJECTED', failureReason: 'out of gas', chainId: '' }),
      ],
      STARKNET_MAINNET,
    );
    expect(merged.map((tx) => [tx.hash, tx.label, tx.status, tx.chainId])).toEqual([
      ['0x1', 'Deploy account #0', 'ACCEPTED_ON_L2', STARKNET_TESTNET],
      ['0x2', 'transfer', 'REJECTED', STARKNET_MAINNET],
    ]);
    expect(merged[1].failureReason).toBe('out of gas');
    expect(merged.some(isPending)).toBe(false);
  });
});
