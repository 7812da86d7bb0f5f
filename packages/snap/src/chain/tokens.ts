/**
 * What a token contract says it is: its name, symbol and decimals, read from the contract on its
 * own chain (one JSON-RPC batch) and kept for the snap's execution. The watch list stores these,
 * never a site's values: amounts every site's dialogs show are formatted with them.
 *
 * A symbol or name is a felt short string (Cairo 0 and the older Cairo 1 tokens: ETH, STRK) or a
 * ByteArray (OpenZeppelin's current ERC-20); both are read.
 */
import { invalidParams } from '../rpc/errors';
import { formatAddress } from '../rpc/structs';
import { isFeltAnswer, malformedAnswer } from './answers';
import { toChainError } from './errors';
import { CONTRACT_NOT_FOUND, viewCall, type ChainContext } from './node';
import type { BatchResult } from './rpc';

export type TokenMetadata = {
  /** undefined when the contract has no readable name(). */
  name?: string;
  symbol: string;
  decimals: number;
};

const ENTRYPOINT_NOT_FOUND = 21;
const CONTRACT_ERROR = 40;
const MAX_SYMBOL = 32;
const MAX_NAME = 64;

const known = new Map<string, Promise<TokenMetadata>>();

/** Text a short string or ByteArray answer spells (UTF-8), or undefined for anything else. */
export function decodeTokenText(result: unknown): string | undefined {
  if (!Array.isArray(result) || !result.every(isFeltAnswer)) {
    return undefined;
  }
  const felts = (result as string[]).map((value) => BigInt(value));
  const bytes: number[] = [];
  const push = (word: bigint, length: number): void => {
    for (let index = length - 1; index >= 0; index -= 1) {
      bytes.push(Number((word >> BigInt(8 * index)) & 0xffn));
    }
  };
  if (felts.length === 1) {
    const hex = felts[0].toString(16);
    push(felts[0], felts[0] === 0n ? 0 : Math.ceil(hex.length / 2));
  } else {
    // ByteArray: [full words, word_0 .. word_{n-1} (31 bytes each), pending word, its length].
    const [count, ...rest] = felts;
    if (count > 1000n || felts.length !== Number(count) + 3) {
      return undefined;
    }
    const pendingLength = rest[rest.length - 1];
    if (pendingLength > 30n) {
      return undefined;
    }
    rest.slice(0, Number(count)).forEach((word) => push(word, 31));
    push(rest[Number(count)], Number(pendingLength));
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}

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
