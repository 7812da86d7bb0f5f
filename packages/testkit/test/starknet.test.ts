/** The testkit's Starknet reads against a real devnet, cross-checked with starknet.js. */
import { hash, RpcProvider } from 'starknet';

import {
  BALANCE_OF_SELECTOR,
  ETH_TOKEN,
  erc20Balance,
  isDeployed,
  mintStrk,
  startDevnet,
  TOKEN_UNIT,
} from '@l2wallet/testkit';

type Devnet = Awaited<ReturnType<typeof startDevnet>> & {
  predeployedAccounts: { address: string }[];
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
