/** The testkit's Starknet reads against a real devnet, cross-checked with starknet.js. */
import { Account, hash, RpcProvider } from 'starknet';

import {
  ALLOWANCE_SELECTOR,
  BALANCE_OF_SELECTOR,
  ETH_TOKEN,
  erc20Allowance,
  erc20Balance,
  isDeployed,
  mintStrk,
  startDevnet,
  TOKEN_UNIT,
} from '@l2wallet/testkit';

type Devnet = Awaited<ReturnType<typeof startDevnet>> & {
  predeployedAccounts: { address: string; private_key: string }[];
};

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet<Devnet>({ seed: 0, accounts: 1 });
});
afterAll(() => devnet?.stop());

it('reads balances as starknet.js does, mints STRK, and tells deployed accounts', async () => {
  expect(BALANCE_OF_SELECTOR).toBe(hash.getSelectorFromName('balance_of'));
  const [{ address }] = devnet.predeployedAccounts;
  const provider = new RpcProvider({ nodeUrl: devnet.rpcUrl });
  const [low] = await provider.callContract({
    contractAddress: ETH_TOKEN,
    entrypoint: 'balance_of',
    calldata: [address],
  });
  expect(await erc20Balance(devnet.rpcUrl, address, { token: ETH_TOKEN })).toBe(BigInt(low));

  const fresh = '0x0123456789abcdef';
  expect(await erc20Balance(devnet.rpcUrl, fresh)).toBe(0n);
  await mintStrk(devnet.rpcUrl, fresh, 3n * TOKEN_UNIT);
  expect(await erc20Balance(devnet.rpcUrl, fresh)).toBe(3n * TOKEN_UNIT);

  expect(await isDeployed(devnet.rpcUrl, address)).toBe(true);
  expect(await isDeployed(devnet.rpcUrl, fresh)).toBe(false);
});

it('reads allowances as starknet.js does', async () => {
  expect(ALLOWANCE_SELECTOR).toBe(hash.getSelectorFromName('allowance'));
  const [{ address, private_key }] = devnet.predeployedAccounts;
  const provider = new RpcProvider({ nodeUrl: devnet.rpcUrl });
  const spender = '0x5ea1ed';
  expect(await erc20Allowance(devnet.rpcUrl, address, spender, { token: ETH_TOKEN })).toBe(0n);
  const account = new Account({ provider, address, signer: private_key });
  const amount = (1n << 130n) + 7n; // both halves of the u256
  const { transaction_hash } = await account.execute({
    contractAddress: ETH_TOKEN,
    entrypoint: 'approve',
    calldata: [spender, amount & ((1n << 128n) - 1n), amount >> 128n],
  });
  await provider.waitForTransaction(transaction_hash, { retryInterval: 100 });
  const [low, high] = await provider.callContract({
    contractAddress: ETH_TOKEN,
    entrypoint: 'allowance',
    calldata: [address, spender],
  });
  expect(BigInt(low) + (BigInt(high) << 128n)).toBe(amount);
  expect(await erc20Allowance(devnet.rpcUrl, address, spender, { token: ETH_TOKEN })).toBe(amount);
  expect(await erc20Allowance(devnet.rpcUrl, address, spender)).toBe(0n);
});
