// The money attacks of packages/paymaster's tests, run in bulk against a paymaster in front of a
// devnet in this process (so a fake SNIP-9 class can be registered in it, as the tests do), with a
// block every second (as a real network: what the relayer submitted is not in the next
// simulation's state at once). Reports the relayer's STRK before and after each attack.
import { pathToFileURL } from 'node:url';

import {
  ETH_TOKEN,
  postJson,
  rpc,
  startDevnet,
  startDevnetPaymaster,
  STRK_TOKEN,
} from '@l2wallet/testkit';
import { Account, CallData, hash, outsideExecution, RpcProvider, stark, uint256 } from 'starknet';

const UDC = '0x2ceed65a4bd731034c01113685c831b01c15d7d432f71afb1cf1634b53a2125';
const FAKE_CLASS = '0x5eaf5eaf5eaf';
const SPONSOR_KEY = 'bench-sponsor-key';

const transfer = (token, recipient, amount) => ({
  contractAddress: token,
  entrypoint: 'transfer',
  calldata: CallData.compile({ recipient, amount: uint256.bnToUint256(amount) }),
});

/** A class that says yes to SNIP-9 and runs none of the calls it is given (test/fakeAccount.ts). */
function fakeSnip9Class() {
  const functions = {
    supports_interface: () => [1n],
    is_valid_signature: () => [0x56414c4944n],
    execute_from_outside_v2: () => [0n],
  };
  const bySelector = new Map();
  const names = new Map();
  for (const [name, fn] of Object.entries(functions)) {
    bySelector.set(BigInt(hash.getSelectorFromName(name)), fn);
    names.set(BigInt(hash.getSelectorFromName(name)), name);
  }
  return {
    name: 'fake',
    classHash: BigInt(FAKE_CLASS),
    abi: [],
    functions: bySelector,
    functionNames: names,
  };
}

export async function runAttacks({ rounds = 10 } = {}) {
  const devnet = await startDevnet({ accounts: 4, blockTime: 1000, preconfirmDelayMs: 250 });
  let paymaster;
  try {
    paymaster = await startDevnetPaymaster(devnet.rpcUrl, {
      apiKeys: [SPONSOR_KEY],
      gasTokens: [{ address: ETH_TOKEN, priceInStrk: '2500' }],
    });
    const provider = new RpcProvider({ nodeUrl: devnet.rpcUrl });
    const relayer = paymaster.relayer.address;
    const predeployed = await rpc(devnet.rpcUrl, 'devnet_getPredeployedAccounts', {});
    const account = (i, options = {}) =>
      new Account({
        provider,
        address: predeployed[i].address,
        signer: predeployed[i].private_key,
        cairoVersion: '1',
        ...options,
      });
    const strk = async (address) => {
      const [low, high] = await provider.callContract(
        { contractAddress: STRK_TOKEN, entrypoint: 'balance_of', calldata: [address] },
        'pre_confirmed',
      );
      return BigInt(low) + (BigInt(high) << 128n);
    };
    const wait = (h) => provider.waitForTransaction(h, { retryInterval: 100 });
    const results = [];
    const measure = async (name, attack) => {
      const before = await strk(relayer);
      const outcome = await attack();
      const after = await strk(relayer);
      results.push({ name, ...outcome, before, after });
    };

    // 1. A contract that only claims SNIP-9 asks for a "refund" of a fee it never pays.
    devnet.devnet.classes.addNative(fakeSnip9Class(), 0);
    const deploy = await account(0).execute({
      contractAddress: UDC,
      entrypoint: 'deploy_contract',
      calldata: [FAKE_CLASS, '0x5a17', 0, 0],
    });
    await wait(deploy.transaction_hash);
    const fake = hash.calculateContractAddressFromHash('0x5a17', FAKE_CLASS, [], 0);
    const chainId = await provider.getChainId();
    await measure(`fake SNIP-9 account asks for a 1 STRK "refund", ${rounds} times`, async () => {
      let refused = 0;
      for (let i = 0; i < rounds; i += 1) {
        const now = (await provider.getBlock('latest')).timestamp;
        const typedData = outsideExecution.getTypedData(
          chainId,
          { caller: relayer, execute_after: now - 60, execute_before: now + 600 },
          stark.randomAddress(),
          [transfer(STRK_TOKEN, relayer, 10n ** 18n)],
          '2',
        );
        const reply = await postJson(paymaster.url, {
          jsonrpc: '2.0',
          id: 1,
          method: 'paymaster_executeTransaction',
          params: {
            transaction: {
              type: 'invoke',
              invoke: { user_address: fake, typed_data: typedData, signature: ['0x1', '0x2'] },
            },
            parameters: { version: '0x1', fee_mode: { mode: 'default', gas_token: STRK_TOKEN } },
          },
        });
        if (reply.json.error) refused += 1;
      }
      return { attempts: rounds, refused };
    });

    // 2. An account signs three executions of more than half its STRK and sends them at once.
    const user = account(1);
    const client = (await import('starknet')).PaymasterRpc;
    const paymasterRpc = new client({ nodeUrl: paymaster.url });
    await measure(
      `3 executions of half a balance + 1 sent at once, ${Math.ceil(rounds / 2)} rounds`,
      async () => {
        let submitted = 0;
        let refused = 0;
        let reverted = 0;
        for (let round = 0; round < Math.ceil(rounds / 2); round += 1) {
          const half = (await strk(user.address)) / 2n + 1n;
          const requests = [];
          for (let i = 0; i < 3; i += 1) {
            const built = await new Account({
              provider,
              address: user.address,
              signer: predeployed[1].private_key,
              cairoVersion: '1',
              paymaster: paymasterRpc,
            }).buildPaymasterTransaction([transfer(STRK_TOKEN, `0xbe${round}${i}`, half)], {
              feeMode: { mode: 'default', gasToken: STRK_TOKEN },
            });
            const signature = stark.signatureToHexArray(await user.signMessage(built.typed_data));
            requests.push({
              transaction: {
                type: 'invoke',
                invoke: { userAddress: user.address, typedData: built.typed_data, signature },
              },
              parameters: built.parameters,
            });
          }
          const outcomes = await Promise.allSettled(
            requests.map((r) => paymasterRpc.executeTransaction(r.transaction, r.parameters)),
          );
          for (const outcome of outcomes) {
            if (outcome.status === 'rejected') refused += 1;
            else {
              submitted += 1;
              if (!(await wait(outcome.value.transaction_hash)).isSuccess()) reverted += 1;
            }
          }
          // Refill for the next round (the devnet's faucet).
          await devnet.devnet.mint(BigInt(user.address), half, 'FRI');
        }
        return { attempts: 3 * Math.ceil(rounds / 2), submitted, refused, reverted };
      },
    );

    // 3. A sponsored build with a tip of 2^62 FRI per L2 gas.
    await measure(`sponsored tip of 2^62 FRI per L2 gas, ${rounds} times`, async () => {
      let refused = 0;
      for (let i = 0; i < rounds; i += 1) {
        const reply = await postJson(
          paymaster.url,
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'paymaster_buildTransaction',
            params: {
              transaction: {
                type: 'invoke',
                invoke: {
                  user_address: user.address,
                  calls: [
                    {
                      to: STRK_TOKEN,
                      selector: hash.getSelectorFromName('transfer'),
                      calldata: ['0x1', '0x1', '0x0'],
                    },
                  ],
                },
              },
              parameters: {
                version: '0x1',
                fee_mode: { mode: 'sponsored', tip: { custom: '0x4000000000000000' } },
              },
            },
          },
          { 'x-paymaster-api-key': SPONSOR_KEY },
        );
        if (reply.json.error) refused += 1;
      }
      return { attempts: rounds, refused };
    });
    return results;
  } finally {
    await paymaster?.stop();
    await devnet.stop();
  }
}

/** The attacks' table, as bench/RESULTS.md records it. */
export function printAttacks(attacks) {
  console.log('\nAttacks (devnet in this process, a block a second; relayer STRK in FRI):\n');
  console.log('| attack | outcome | relayer STRK before | after | change |');
  console.log('| ------ | ------- | ------------------- | ----- | ------ |');
  for (const { name, before, after, ...outcome } of attacks) {
    const said = Object.entries(outcome)
      .map(([key, value]) => `${key} ${value}`)
      .join(', ');
    console.log(`| ${name} | ${said} | ${before} | ${after} | ${after - before} |`);
  }
}

// `node bench/paymaster/attacks.mjs`: the attacks alone.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  printAttacks(await runAttacks({ rounds: Number(process.env.BENCH_ATTACK_ROUNDS ?? 10) }));
}
