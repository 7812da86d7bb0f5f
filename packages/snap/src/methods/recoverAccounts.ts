import { defaulted, size, integer, type } from 'superstruct';

import { accountRecordFor } from '../accounts';
import { u256Answer } from '../node/answers';
import { toChainError } from '../node/errors';
import { findDeployTxnHash } from '../node/explorer';
import { classHashAtCall, CONTRACT_NOT_FOUND, getChain, viewCall } from '../node/chain';
import type { RpcCall } from '../node/client';
import { deriveAccountKey, type AccountKey } from '../keys';
import { invalidParams } from '../errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressIndexStruct, OptionalChainIdStruct } from '../starknet/structs';
import { MAX_ACCOUNTS_PER_CALL, recordGrant, requireIndexGrant } from '../sites/grants';
import {
  ETH_TOKEN_ADDRESS,
  findAccount,
  stateStore,
  STRK_TOKEN_ADDRESS,
  upsertAccount,
  type AccountRecord,
} from '../state';

/** Addresses checked per JSON-RPC batch (3 calls each). */
export const RECOVERY_BATCH_ADDRESSES = 50;
/** One call may add at most this many accounts to a site's grant. */
const MAX_SCANNED = MAX_ACCOUNTS_PER_CALL;
/** BIP-44 address indexes are non-hardened child numbers. */
const MAX_ADDRESS_INDEX = 2 ** 31 - 1;

type ScanResult = { key: AccountKey; deployed: boolean; hasBalance: boolean };

/**
 * l2_recoverAccounts: derives accounts from `startScanIndex` on and checks each on chain
 * (deployed? ETH or STRK balance?) in JSON-RPC batches. It stops after `maxScanned` addresses or
 * after `maxMissed` uninitialised ones (neither deployed nor funded), stores every scanned
 * account and returns their records, with `deployTxnHash` from the explorer when it knows it.
 *
 * A scan over indexes the site was not granted asks first (a dialog naming the site and the
 * range); a decline is 4001 and stores nothing. The approved range is granted to the site.
 * `maxScanned` is at most MAX_ACCOUNTS_PER_CALL (20).
 */
export const recoverAccounts = defineMethod({
  names: ['recoverAccounts'],
  params: type({
    startScanIndex: defaulted(AddressIndexStruct, 0),
    maxScanned: defaulted(size(integer(), 1, MAX_SCANNED), 1),
    maxMissed: defaulted(size(integer(), 1, MAX_SCANNED), 1),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ startScanIndex, maxScanned, maxMissed, chainId }, { origin }) => {
    if (startScanIndex + maxScanned - 1 > MAX_ADDRESS_INDEX) {
      throw invalidParams(
        'maxScanned',
        `reaches past the last address index ${MAX_ADDRESS_INDEX}: at most ${MAX_ADDRESS_INDEX - startScanIndex + 1} from startScanIndex ${startScanIndex}`,
      );
    }
    const range = Array.from({ length: maxScanned }, (_, offset) => startScanIndex + offset);
    // Derived before the dialog, which shows every address of the range (at most 20).
    const rangeKeys: AccountKey[] = [];
    for (const index of range) {
      rangeKeys.push(await deriveAccountKey(index));
    }
    await requireIndexGrant(origin, {
      kind: 'recover',
      chainId,
      accounts: rangeKeys.map(({ addressIndex, address }) => ({ addressIndex, address })),
    });
    const chain = getChain(chainId);
    const scanned: ScanResult[] = [];
    let missed = 0;
    let next = startScanIndex;
    while (scanned.length < maxScanned && missed < maxMissed) {
      const count = Math.min(maxScanned - scanned.length, RECOVERY_BATCH_ADDRESSES);
      const keys = rangeKeys.slice(next - startScanIndex, next - startScanIndex + count);
      next += count;
      const calls: RpcCall[] = keys.flatMap((key) => [
        classHashAtCall(key.address, 'latest'),
        viewCall(STRK_TOKEN_ADDRESS, 'balance_of', [key.address], 'latest'),
        viewCall(ETH_TOKEN_ADDRESS, 'balance_of', [key.address], 'latest'),
      ]);
      const results = await chain.rpc.batch<unknown>(calls);
      for (const [position, key] of keys.entries()) {
        const [classHash, strk, eth] = results.slice(position * 3, position * 3 + 3);
        if (!classHash.ok && classHash.error.code !== CONTRACT_NOT_FOUND) {
          throw toChainError(classHash.error, 'Recovering accounts');
        }
        for (const balance of [strk, eth]) {
          if (!balance.ok) {
            throw toChainError(balance.error, 'Recovering accounts');
          }
        }
        const deployed = classHash.ok;
        const hasBalance =
          (strk.ok && u256Answer(strk.result, 'a balance') > 0n) ||
          (eth.ok && u256Answer(eth.result, 'a balance') > 0n);
        scanned.push({ key, deployed, hasBalance });
        if (!deployed && !hasBalance) {
          missed += 1;
          if (missed >= maxMissed) {
            break;
          }
        }
      }
    }

    const stateBefore = await stateStore.read();
    const deployHashes = await Promise.all(
      scanned.map(async ({ key, deployed }) => {
        if (!deployed) {
          return '';
        }
        const known = findAccount(stateBefore, chainId, key.address)?.deployTxnHash;
        return known || (await findDeployTxnHash(chain.explorer, key.address));
      }),
    );

    return stateStore.update((state) => {
      // The range the user approved (or the site already held): a later scan of it, which may
      // stop earlier or later, asks nothing again.
      recordGrant(state, origin, range);
      return scanned.map(({ key }, position): AccountRecord => {
        const existing = findAccount(state, chainId, key.address);
        const record = {
          ...accountRecordFor(key, chainId),
          deployTxnHash: deployHashes[position] || existing?.deployTxnHash || '',
        };
        upsertAccount(state, record);
        return record;
      });
    });
  },
});
