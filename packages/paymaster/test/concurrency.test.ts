/**
 * Several users at once: nine wallets (the devnet's OpenZeppelin accounts, SNIP-9 version 2) each
 * execute three paymaster transactions in a row, all nine side by side, half sponsored and half
 * paying in ETH. Every one is accepted, with no nonce error, and the relayer's nonce moves by
 * exactly the number of transactions.
 */
import {
  balanceOf,
  ETH_TOKEN,
  predeployedUser,
  receiptOf,
  SPONSOR_KEY,
  type Stack,
  startStack,
  transfer,
} from './helpers';

let stack: Stack;
const USERS = 9;
const ROUNDS = 3;
const RECIPIENT = '0xc0ffee';

beforeAll(async () => {
  stack = await startStack({ accounts: USERS + 1 });
});

afterAll(() => stack?.stop());

it(`serves ${USERS} users at once without a nonce error`, async () => {
  const nonceBefore = BigInt(
    await stack.provider.getNonceForAddress(stack.relayer.address, 'pre_confirmed'),
  );
  const hashes = await Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      const sponsored = i % 2 === 0;
      const account = predeployedUser(stack, i, sponsored ? SPONSOR_KEY : undefined);
      const sent: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const { transaction_hash } = await account.executePaymasterTransaction(
          [transfer(ETH_TOKEN, RECIPIENT, BigInt(i + 1))],
          { feeMode: sponsored ? { mode: 'sponsored' } : { mode: 'default', gasToken: ETH_TOKEN } },
        );
        sent.push(transaction_hash);
      }
      return sent;
    }),
  );
  const all = hashes.flat();
  expect(new Set(all).size).toBe(USERS * ROUNDS);
  for (const hash of all) expect((await receiptOf(stack, hash)).isSuccess()).toBe(true);
  const nonceAfter = BigInt(
    await stack.provider.getNonceForAddress(stack.relayer.address, 'pre_confirmed'),
  );
  expect(nonceAfter - nonceBefore).toBe(BigInt(USERS * ROUNDS));
  // Each user's transfers, and nothing else, reached the recipient.
  const expected = Array.from({ length: USERS }, (_, i) => BigInt(i + 1) * BigInt(ROUNDS)).reduce(
    (a, b) => a + b,
  );
  expect(await balanceOf(stack, RECIPIENT, ETH_TOKEN)).toBe(expected);
});
