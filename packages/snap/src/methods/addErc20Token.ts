import { coerce, define, optional, refine, string, type } from 'superstruct';

import { getChain } from '../node/chain';
import { readTokenMetadata } from '../node/tokens';
import { invalidParams, userRejected } from '../errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, ChainIdStruct } from '../starknet/structs';
import { findTokenIn, stateStore, upsertToken, watchListOf, type Erc20Token } from '../state';
import { AddTokenScreen, confirm } from '../ui';

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/u;

const TokenNameStruct = refine(string(), 'token name', (value) =>
  value.trim().length > 0 && value.length <= 64 && PRINTABLE_ASCII.test(value)
    ? true
    : 'expected a token name: 1 to 64 printable ASCII characters',
);

const TokenSymbolStruct = refine(string(), 'token symbol', (value) =>
  /^[\x21-\x7e]{1,16}$/u.test(value)
    ? true
    : 'expected a token symbol: 1 to 16 printable ASCII characters without spaces',
);

/** 0..255, as a number or a decimal string. */
const DecimalsStruct = coerce(
  define<number>('decimals', (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255
      ? true
      : 'expected token decimals: an integer from 0 to 255 (number or decimal string)',
  ),
  string(),
  (value) => (/^[0-9]{1,3}$/u.test(value.trim()) ? Number(value.trim()) : value),
);

const LogoStruct = refine(string(), 'logo URL', (value) =>
  /^https:\/\/[^\s]+$/u.test(value) && value.length <= 2048
    ? true
    : 'expected a logo URL starting with https://',
);

/**
 * l2_addErc20Token: reads the token's name, symbol and decimals from its contract on `chainId`
 * (node/tokens.ts, kept for the execution), refuses the request when the site's symbol or
 * decimals disagree with the contract, and after the user agrees adds the token to the chain's
 * watch list (or updates the entry) with the contract's values, noting which site added it
 * (listed per site on the home page). Returns the stored token.
 *
 * Every site's dialogs format amounts of this token with these values, so they are never a
 * site's: a site can only name a token, not describe it.
 */
export const addErc20Token = defineMethod({
  names: ['addErc20Token'],
  params: type({
    tokenAddress: AddressStruct,
    tokenName: TokenNameStruct,
    tokenSymbol: TokenSymbolStruct,
    tokenDecimals: optional(DecimalsStruct),
    tokenLogo: optional(LogoStruct),
    chainId: ChainIdStruct,
    /** The user's account, as in docs/interface/snap.md#l2_adderc20token; checked for form only. */
    address: optional(AddressStruct),
  }),
  handler: async (
    { tokenAddress, tokenName, tokenSymbol, tokenDecimals, tokenLogo, chainId },
    { origin },
  ) => {
    const chain = getChain(chainId);
    const onChain = await readTokenMetadata(chain, tokenAddress);
    const network = chain.network.name;
    if (tokenSymbol !== onChain.symbol) {
      throw invalidParams(
        'tokenSymbol',
        `disagrees with the token contract on ${network}: its symbol() is ${JSON.stringify(onChain.symbol)}, got ${JSON.stringify(tokenSymbol)}`,
      );
    }
    if (tokenDecimals !== undefined && tokenDecimals !== onChain.decimals) {
      throw invalidParams(
        'tokenDecimals',
        `disagrees with the token contract on ${network}: its decimals() is ${onChain.decimals}, got ${tokenDecimals}`,
      );
    }
    const token: Erc20Token = {
      address: tokenAddress,
      name: onChain.name ?? tokenName.trim(),
      symbol: onChain.symbol,
      decimals: onChain.decimals,
      chainId,
      ...(tokenLogo ? { logo: tokenLogo } : {}),
    };
    const existing = findTokenIn(watchListOf(await stateStore.read(), chainId), tokenAddress);
    if (
      !(await confirm(
        origin,
        AddTokenScreen({ token, network: chain.network, existing, nameFromChain: !!onChain.name }),
      ))
    ) {
      throw userRejected();
    }
    return stateStore.update((state) => upsertToken(state, token, origin));
  },
});
