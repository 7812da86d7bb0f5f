/** A STRK transfer as the starknet-react page sends it. */
import { STRK_ADDRESS } from '../config';

export const STRK_UNIT = 10n ** 18n;

/** A STRK amount typed by the user ("2.5") in FRI; 0n when it is not a decimal number. */
export function parseStrk(amount: string): bigint {
  const [whole, fraction = ''] = amount.trim().split('.');
  if (!/^\d+$/.test(whole || '0') || !/^\d*$/.test(fraction)) return 0n;
  return BigInt(whole || '0') * STRK_UNIT + BigInt((fraction + '0'.repeat(18)).slice(0, 18));
}

/** The STRK contract's `transfer(recipient, amount: u256)` call. */
export function strkTransferCall(recipient: string, amountFri: bigint) {
  return {
    contractAddress: STRK_ADDRESS,
    entrypoint: 'transfer',
    calldata: [
      recipient,
      (amountFri & (2n ** 128n - 1n)).toString(),
      (amountFri >> 128n).toString(),
    ],
  };
}
