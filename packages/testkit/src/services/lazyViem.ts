/**
 * viem, loaded on first use: most users of the testkit never deploy or sign for the ERC-4337
 * contracts, and viem is a large load for a test that only starts a devnet.
 */
export const viem = () => require('viem') as typeof import('viem');

export const privateKeyToAccount: typeof import('viem/accounts').privateKeyToAccount = (
  key,
  options,
) => (require('viem/accounts') as typeof import('viem/accounts')).privateKeyToAccount(key, options);
