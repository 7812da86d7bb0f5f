import { sign } from '@scure/starknet';
import { ETH_TOKEN_ADDRESS, GAS_PRICES, STRK_TOKEN_ADDRESS } from './constants';
import { Felt, selectorFromName, splitU256, toHex } from './felt';
import { chargeableAccount } from './predeployed';
import { Transaction, transactionHash, TX_VERSION_3 } from './transactions';

// devnet_mint, as starknet-devnet's faucet: a real, signed invoke of the token's
// permissioned_mint from the devnet's chargeable account, so a mint has a hash and a receipt.

export type Unit = 'WEI' | 'FRI';

/** The faucet's STRK at genesis: enough to pay the fees of any number of mints. */
export const FAUCET_FEE_BALANCE = 2n ** 200n;

const PERMISSIONED_MINT = selectorFromName('permissioned_mint');
const U256_LIMIT = 2n ** 256n;

/** A mint amount must fit in a u256. */
export function assertMintAmount(amount: bigint): void {
  if (amount < 0n || amount >= U256_LIMIT) throw new RangeError('amount must fit in a u256');
}

/** STRK for FRI, ETH for WEI. */
export function tokenOf(unit: Unit): Felt {
  return BigInt(unit === 'FRI' ? STRK_TOKEN_ADDRESS : ETH_TOKEN_ADDRESS);
}

/** The faucet's signed mint of `amount` (a u256) to `address`, at the faucet's `nonce`. */
export function mintTransaction(
  address: Felt,
  amount: bigint,
  unit: Unit,
  nonce: Felt,
  chainId: Felt,
): Transaction {
  assertMintAmount(amount);
  const faucet = chargeableAccount();
  const [low, high] = splitU256(amount);
  const price = (p: bigint): bigint => p * 2n;
  const tx: Transaction = {
    type: 'INVOKE',
    version: TX_VERSION_3,
    senderAddress: faucet.address,
    calldata: [1n, tokenOf(unit), PERMISSIONED_MINT, 3n, address, low, high],
    nonce,
    resourceBounds: {
      l1Gas: { maxAmount: 0n, maxPricePerUnit: price(GAS_PRICES.l1Gas.fri) },
      l2Gas: { maxAmount: 10_000_000n, maxPricePerUnit: price(GAS_PRICES.l2Gas.fri) },
      l1DataGas: { maxAmount: 100_000n, maxPricePerUnit: price(GAS_PRICES.l1DataGas.fri) },
    },
    tip: 0n,
    paymasterData: [],
    accountDeploymentData: [],
    proofFacts: [],
    nonceDataAvailabilityMode: 'L1',
    feeDataAvailabilityMode: 'L1',
    signature: [],
  };
  const signature = sign(toHex(transactionHash(tx, chainId)), toHex(faucet.privateKey));
  tx.signature = [signature.r, signature.s];
  return tx;
}
