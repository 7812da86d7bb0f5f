/** STRK calls as the starknet-react page sends them (a transfer, a sponsored approve). */
import { STRK_ADDRESS } from '../utils/config';

export const STRK_UNIT = 10n ** 18n;

/** A STRK amount typed by the user ("2.5") in FRI; 0n when it is not a decimal number. */
export function parseStrk(amount: string): bigint {
  const [whole, fraction = ''] = amount.trim().split('.');
  if (!/^\d+$/.test(whole || '0') || !/^\d*$/.test(fraction)) return 0n;
  return BigInt(whole || '0') * STRK_UNIT + BigInt((fraction + '0'.repeat(18)).slice(0, 18));
}

/** A call of the STRK contract's `transfer` or `approve` (recipient or spender, amount: u256). */
export function strkCall(entrypoint: 'transfer' | 'approve', account: string, amountFri: bigint) {
  return {
    contractAddress: STRK_ADDRESS,
    entrypoint,
    calldata: [account, (amountFri & (2n ** 128n - 1n)).toString(), (amountFri >> 128n).toString()],
  };
}

/** The STRK contract's `transfer(recipient, amount: u256)` call. */
export const strkTransferCall = (recipient: string, amountFri: bigint) =>
  strkCall('transfer', recipient, amountFri);
