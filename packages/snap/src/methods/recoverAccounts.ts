import { defaulted, integer, size, type } from 'superstruct';

import { invalidParams } from '../errors';
import { knownDeployHash, noteDeployment, scanAccounts, scanned } from '../flows/accounts';
import { MAX_ACCOUNTS_PER_CALL, recordGrant, requireIndexGrant } from '../flows/grants';
import { deriveAccountKey, type AccountKey } from '../keys';
import { getChain } from '../node/chain';
import { findDeployTxnHash } from '../node/explorer';
import { defineMethod } from '../rpc/dispatcher';
import { AddressIndexStruct, OptionalChainIdStruct } from '../starknet/structs';
import { stateStore, type AccountRecord } from '../state';

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
    const found: ScanResult[] = [];
    let missed = 0;
    let next = startScanIndex;
    while (found.length < maxScanned && missed < maxMissed) {
      const count = Math.min(maxScanned - found.length, RECOVERY_BATCH_ADDRESSES);
      const keys = rangeKeys.slice(next - startScanIndex, next - startScanIndex + count);
      next += count;
      const answers = await scanAccounts(
        chain,
        keys.map((key) => key.address),
      );
      for (const [position, key] of keys.entries()) {
        const { deployed, hasBalance } = scanned(answers[position]);
        found.push({ key, deployed, hasBalance });
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
      found.map(async ({ key, deployed }) => {
        if (!deployed) {
          return '';
        }
        const known = knownDeployHash(stateBefore, chainId, key.address);
        return known || (await findDeployTxnHash(chain.explorer, key.address));
      }),
    );

    return stateStore.update((state) => {
      // The range the user approved (or the site already held): a later scan of it, which may
      // stop earlier or later, asks nothing again.
      recordGrant(state, origin, range);
      return found.map(({ key }, position): AccountRecord =>
        noteDeployment(state, key, chainId, deployHashes[position], false),
      );
    });
  },
});
