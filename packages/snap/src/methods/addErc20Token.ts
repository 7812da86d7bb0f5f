import { coerce, define, defaulted, optional, refine, string, type } from 'superstruct';

import { getNetwork } from '../networks';
import { invalidParams, userRejected } from '../rpc/errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, ChainIdStruct } from '../rpc/structs';
import {
  defaultTokens,
  findTokenIn,
  stateStore,
  tokensOf,
  upsertToken,
  type Erc20Token,
} from '../state';
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
 * l2_addErc20Token: after the user agrees, adds the token to the chain's watch list, or updates
 * it when the address is already watched. Returns the stored token.
 */
export const addErc20Token = defineMethod({
  names: ['addErc20Token'],
  params: type({
    tokenAddress: AddressStruct,
    tokenName: TokenNameStruct,
    tokenSymbol: TokenSymbolStruct,
    tokenDecimals: defaulted(DecimalsStruct, 18),
    tokenLogo: optional(LogoStruct),
    chainId: ChainIdStruct,
    /** The user's account, as in SPEC 4.1; checked for form only. */
    address: optional(AddressStruct),
  }),
  handler: async (
    { tokenAddress, tokenName, tokenSymbol, tokenDecimals, tokenLogo, chainId },
    { origin },
  ) => {
    const token: Erc20Token = {
      address: tokenAddress,
      name: tokenName.trim(),
      symbol: tokenSymbol,
      decimals: tokenDecimals,
      chainId,
      ...(tokenLogo ? { logo: tokenLogo } : {}),
    };
    // ETH and STRK pay fees and show balances: a site may rename them, never make them show
    // another symbol or scale amounts with other decimals.
    const preloaded = findTokenIn(defaultTokens(chainId), tokenAddress);
    if (preloaded && token.symbol !== preloaded.symbol) {
      throw invalidParams(
        'tokenSymbol',
        `cannot change the symbol of the preloaded ${preloaded.symbol} token: expected "${preloaded.symbol}", got "${token.symbol}"`,
      );
    }
    if (preloaded && token.decimals !== preloaded.decimals) {
      throw invalidParams(
        'tokenDecimals',
        `cannot change the decimals of the preloaded ${preloaded.symbol} token: expected ${preloaded.decimals}, got ${token.decimals}`,
      );
    }
    const existing = findTokenIn(tokensOf(await stateStore.read(), chainId), tokenAddress);
    if (
      !(await confirm(origin, AddTokenScreen({ token, network: getNetwork(chainId), existing })))
    ) {
      throw userRejected();
    }
    return stateStore.update((state) => upsertToken(state, token));
  },
});
