/**
 * The ABI of the contracts a transaction calls, read from the chain itself, so the dialog's
 * argument names are the contract's and not what a site claims: one batch of
 * starknet_getClassHashAt, then starknet_getClass for the class hashes not seen yet (kept per
 * class hash, at most MAX_CACHED_CLASSES). Display only: any failure leaves the calls undecoded
 * by the chain (the site's `abis`, labelled as the site's, or the raw calldata).
 */
import { isFeltAnswer } from './answers';
import { classCall, classHashAtCall, type ChainContext } from './chain';

const MAX_CACHED_CLASSES = 32;

/** Class hash -> its ABI (entries), or null when the class has none the snap can read. */
const abiByClassHash = new Map<string, unknown[] | null>();

function readAbi(contractClass: unknown): unknown[] | null {
  const abi = (contractClass as { abi?: unknown } | null)?.abi;
  try {
    const parsed: unknown = typeof abi === 'string' ? JSON.parse(abi) : abi;
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function remember(classHash: string, abi: unknown[] | null): void {
  abiByClassHash.set(classHash, abi);
  while (abiByClassHash.size > MAX_CACHED_CLASSES) {
    abiByClassHash.delete(abiByClassHash.keys().next().value as string);
  }
}

/** Contract address -> ABI, for the addresses whose class could be read. Never throws. */
export async function readContractAbis(
  chain: ChainContext,
  addresses: readonly string[],
): Promise<Record<string, unknown[]>> {
  const unique = [...new Set(addresses.map((address) => BigInt(address).toString(16)))].map(
    (hex) => `0x${hex}`,
  );
  const found: Record<string, unknown[]> = {};
  try {
    const hashes = await chain.rpc.batch(
      unique.map((address) => classHashAtCall(address, 'latest')),
    );
    const classHashOf = new Map<string, string>();
    hashes.forEach((answer, index) => {
      if (answer.ok && isFeltAnswer(answer.result)) {
        classHashOf.set(unique[index], BigInt(answer.result).toString(16));
      }
    });
    const missing = [...new Set(classHashOf.values())].filter((hash) => !abiByClassHash.has(hash));
    if (missing.length > 0) {
      const classes = await chain.rpc.batch(
        missing.map((hash) => classCall(`0x${hash}`, 'latest')),
      );
      classes.forEach((answer, index) => {
        if (answer.ok) {
          remember(missing[index], readAbi(answer.result));
        }
      });
    }
    for (const [address, hash] of classHashOf) {
      const abi = abiByClassHash.get(hash);
      if (abi) {
        found[address] = abi;
      }
    }
  } catch {
    // The dialog falls back to the site's abis or the raw calldata.
  }
  return found;
}
