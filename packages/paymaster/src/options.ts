/** What a paymaster is started with, the policy's defaults, and the checks of its relayer key. */
import type { Policy } from './flows/context';
import { toHex } from './protocol/felt';

export interface PaymasterOptions {
  /** The Starknet node's JSON-RPC URL (0.9 or 0.10). It may carry a key: it is never shown. */
  nodeUrl: string;
  relayerAddress: string;
  /** The relayer account's Stark private key. */
  relayerPrivateKey: string;
  /** The keys whose requests may be sponsored (header x-paymaster-api-key). */
  apiKeys?: string[];
  /** Gas tokens of `default` mode besides STRK, with their price in STRK per whole token. */
  gasTokens?: { address: string; priceInStrk: string }[];
  feeMarginPercent?: number;
  defaultValiditySeconds?: number;
  maxValiditySeconds?: number;
  minValiditySeconds?: number;
  nodeTimeoutMs?: number;
  /** Re-sends of one signed transaction whose answer was lost before it is left uncertain. */
  sendAttempts?: number;
  /** The highest custom tip, FRI per L2 gas unit (default 10^9). */
  maxTip?: bigint;
  /** What one sponsor key may spend per UTC day, in FRI (default 100 STRK). */
  sponsorDailyBudgetFri?: bigint;
  /** The relayer's STRK floor, in FRI (default 1 STRK): below it, nothing is relayed. */
  minRelayerBalanceFri?: bigint;
  receiptTimeoutMs?: number;
  /** Builds and executes a minute per client address and per account (default 120). */
  rateLimitPerMinute?: number;
  /** The SQLite file of tracking ids, debts and budgets (default: in memory). */
  stateFile?: string;
  /**
   * Redis for the state and the rate limits instead (several paymasters on any hosts share it).
   * The URL may carry a password: the CLI takes it from the environment or a file.
   */
  redisUrl?: string;
  /** The prefix of this paymaster deployment's Redis keys (default `l2-paymaster:`). */
  redisPrefix?: string;
  /** How long an account's turn is held at most (default: the receipt timeout plus 30 s). */
  turnLeaseMs?: number;
  log?: (line: string) => void;
}

export const DEFAULT_POLICY: Policy = {
  feeMarginPercent: 20,
  defaultValiditySeconds: 600,
  maxValiditySeconds: 3600,
  minValiditySeconds: 30,
  maxTip: 10n ** 9n,
  sponsorDailyBudgetFri: 100n * 10n ** 18n,
  minRelayerBalanceFri: 10n ** 18n,
  receiptTimeoutMs: 120_000,
};

/** Why the paymaster cannot start; never holds a key. */
export class StartupError extends Error {}

const CURVE_ORDER = 0x800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2fn;

/** The relayer key as a felt, or a StartupError that never repeats it. */
export function readPrivateKey(key: string): string {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(key.trim())) {
    throw new StartupError('the relayer key is not a hex private key (0x...)');
  }
  const value = BigInt(key.trim());
  if (value === 0n || value >= CURVE_ORDER)
    throw new StartupError("the relayer key is out of the Stark curve's range");
  return toHex(value);
}
