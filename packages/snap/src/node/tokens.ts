/**
 * Token contracts: an account's balance, and what a token says it is: its name, symbol and
 * decimals, read from the contract on its own chain (one JSON-RPC batch) and kept for the snap's
 * execution. The watch list stores these,
 * never a site's values: amounts every site's dialogs show are formatted with them.
 *
 * A symbol or name is a felt short string or a ByteArray (starknet/tokens.ts reads both).
 */
import { invalidParams } from '../errors';
import { formatAddress, toHex } from '../starknet/felt';
import { decodeTokenText } from '../starknet/tokens';
import { isFeltAnswer, malformedAnswer, u256Answer } from './answers';
import type { BatchResult } from './client';
import {
  CONTRACT_ERROR,
  CONTRACT_NOT_FOUND,
  ENTRYPOINT_NOT_FOUND,
  viewCall,
  type ChainContext,
} from './chain';
import { toChainError } from './errors';

export type TokenMetadata = {
  /** undefined when the contract has no readable name(). */
  name?: string;
  symbol: string;
  decimals: number;
};

const MAX_SYMBOL = 32;
const MAX_NAME = 64;

const known = new Map<string, Promise<TokenMetadata>>();

/** Shown text: not empty, no control characters, not longer than `max`. */
function displayable(text: string | undefined, max: number): text is string {
  return text !== undefined && text.length > 0 && text.length <= max && !/\p{C}/u.test(text);
}

function notAToken(network: string, why: string): Error {
  return invalidParams('tokenAddress', `is not an ERC-20 token on ${network}: ${why}`);
}

async function readFromChain(chain: ChainContext, address: string): Promise<TokenMetadata> {
  const network = chain.network.name;
  const [name, symbol, decimals] = await chain.rpc.batch<unknown>([
    viewCall(address, 'name', []),
    viewCall(address, 'symbol', []),
    viewCall(address, 'decimals', []),
  ]);
  const refusal = (answer: BatchResult, what: string): Error | undefined => {
    if (answer.ok) {
      return undefined;
    }
    if (answer.error.code === CONTRACT_NOT_FOUND) {
      return invalidParams('tokenAddress', `has no contract on ${network}`);
    }
    if (answer.error.code === ENTRYPOINT_NOT_FOUND || answer.error.code === CONTRACT_ERROR) {
      return notAToken(network, `its contract does not answer ${what}`);
    }
    return toChainError(answer.error, 'Reading the token contract');
  };
  const failed = refusal(symbol, 'symbol()') ?? refusal(decimals, 'decimals()');
  if (failed) {
    throw failed;
  }
  const symbolText = decodeTokenText(symbol.ok ? symbol.result : undefined);
  if (!displayable(symbolText, MAX_SYMBOL)) {
    throw notAToken(network, 'its symbol() is not text the snap can show');
  }
  const [decimalsFelt] = (decimals.ok ? decimals.result : []) as unknown[];
  if (!isFeltAnswer(decimalsFelt)) {
    throw malformedAnswer('a token decimals()');
  }
  if (BigInt(decimalsFelt) > 255n) {
    throw notAToken(network, `its decimals() is ${BigInt(decimalsFelt)}, above 255`);
  }
  // A token without a readable name keeps the name the site gave.
  const nameText = name.ok ? decodeTokenText(name.result) : undefined;
  return {
    ...(displayable(nameText, MAX_NAME) ? { name: nameText } : {}),
    symbol: symbolText,
    decimals: Number(BigInt(decimalsFelt)),
  };
}

/**
 * The token's name, symbol and decimals on `chain`, read once per execution: -32602 naming
 * `tokenAddress` when there is no contract there or it is not an ERC-20 the snap can read,
 * -32002 when the node cannot answer.
 */
export async function readTokenMetadata(
  chain: ChainContext,
  address: string,
): Promise<TokenMetadata> {
  const key = `${chain.network.chainId}:${formatAddress(address)}`;
  let reading = known.get(key);
  if (!reading) {
    reading = readFromChain(chain, address);
    known.set(key, reading);
    reading.catch(() => known.delete(key));
  }
  return reading;
}

/**
 * `account`'s balance of `token` in the latest block and in pre_confirmed, as hex u256: one
 * batch (l2_getErc20TokenBalance).
 */
export async function readTokenBalance(
  chain: ChainContext,
  token: string,
  account: string,
): Promise<{ balanceLatest: string; balancePending: string }> {
  const [latest, pending] = await chain.rpc.batch<unknown>([
    viewCall(token, 'balance_of', [account], 'latest'),
    viewCall(token, 'balance_of', [account], 'pre_confirmed'),
  ]);
  if (!latest.ok) {
    throw toChainError(latest.error, 'Reading the token balance');
  }
  if (!pending.ok) {
    throw toChainError(pending.error, 'Reading the pending token balance');
  }
  return {
    balancePending: toHex(u256Answer(pending.result, 'a token balance')),
    balanceLatest: toHex(u256Answer(latest.result, 'a token balance')),
  };
}
