/**
 * ERC-20 tokens as the snap reads them: the text a contract's name() or symbol() answer spells
 * (a felt short string, as Cairo 0 and the older Cairo 1 tokens such as ETH and STRK answer, or a
 * ByteArray, as OpenZeppelin's current ERC-20 does), and a token of a list by its address.
 */
import type { Erc20Token } from '@l2wallet/starknet-protocol';

import { isHexFelt, sameAddress } from './felt';

/** Text a short string or ByteArray answer spells (UTF-8), or undefined for anything else. */
export function decodeTokenText(result: unknown): string | undefined {
  if (!Array.isArray(result) || !result.every(isHexFelt)) {
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

/** The token at `address` in a watch list. */
export function findTokenIn<Token extends Erc20Token>(
  tokens: readonly Token[],
  address: string,
): Token | undefined {
  return tokens.find((known) => sameAddress(known.address, address));
}
