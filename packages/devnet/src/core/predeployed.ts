import { getStarkKey } from '@scure/starknet';
import { encodeShortString, Felt, toHex } from './felt';
import { computeContractAddress, poseidonMany } from './hashing';
import { OZ_ACCOUNT_CLASS_HASH } from './constants';

export interface PredeployedAccount {
  address: string;
  private_key: string;
  public_key: string;
  initial_balance: string;
}

const CURVE_ORDER = 0x800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2fn;

/**
 * The devnet's faucet: an OpenZeppelin account (not listed with the predeployed ones) that signs
 * the permissioned_mint transactions behind devnet_mint, as starknet-devnet's chargeable account.
 */
export function chargeableAccount(): { address: Felt; privateKey: Felt; publicKey: Felt } {
  const privateKey =
    (poseidonMany([encodeShortString('l2-devnet chargeable')]) % (CURVE_ORDER - 1n)) + 1n;
  const publicKey = BigInt(getStarkKey(toHex(privateKey)));
  const address = computeContractAddress(publicKey, BigInt(OZ_ACCOUNT_CLASS_HASH), [publicKey], 0n);
  return { address, privateKey, publicKey };
}

/**
 * Accounts derived from the seed: key i = poseidon(seed, i) reduced below the curve order, an
 * OpenZeppelin 1.0.0 account with salt = public key. Same seed, same accounts.
 */
export function derivePredeployedAccounts(
  seed: number,
  count: number,
  initialBalance: bigint,
): PredeployedAccount[] {
  const accounts: PredeployedAccount[] = [];
  for (let i = 0; i < count; i += 1) {
    const privateKey = (poseidonMany([BigInt(seed), BigInt(i)]) % (CURVE_ORDER - 1n)) + 1n;
    const publicKey: Felt = BigInt(getStarkKey(toHex(privateKey)));
    const address = computeContractAddress(
      publicKey,
      BigInt(OZ_ACCOUNT_CLASS_HASH),
      [publicKey],
      0n,
    );
    accounts.push({
      address: toHex(address),
      private_key: toHex(privateKey),
      public_key: toHex(publicKey),
      initial_balance: initialBalance.toString(),
    });
  }
  return accounts;
}
