/**
 * Amounts and times as the user reads them: the one formatting of token amounts (fees in STRK
 * are one of them) and of Unix timestamps.
 */

/** A token amount in whole units with its symbol: 1500000000000000000, 18, STRK -> "1.5 STRK". */
export function formatUnits(amount: bigint, decimals: number, symbol: string): string {
  const negative = amount < 0n;
  const magnitude = negative ? -amount : amount;
  const scale = 10n ** BigInt(decimals);
  const whole = magnitude / scale;
  const fraction =
    decimals > 0 ? (magnitude % scale).toString().padStart(decimals, '0').replace(/0+$/u, '') : '';
  const text = fraction.length > 0 ? `${whole}.${fraction}` : whole.toString();
  return `${negative ? '-' : ''}${text} ${symbol}`;
}

/** An FRI amount (10^-18 STRK, the unit of every v3 fee) as STRK: "0.0015 STRK". */
export function formatStrk(fri: bigint): string {
  return formatUnits(fri, 18, 'STRK');
}

/** Unix seconds as an ISO date (UTC), or the number when it is no date JavaScript can show. */
export function formatTimestamp(seconds: bigint): string {
  const millis = Number(seconds) * 1000;
  if (!Number.isFinite(millis) || Math.abs(millis) > 8.64e15) {
    return `${seconds} (unix seconds)`;
  }
  return `${new Date(millis).toISOString().replace('.000Z', 'Z')} (${seconds})`;
}
