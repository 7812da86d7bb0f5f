/**
 * A contract that only claims SNIP-9, for the attacker's side of the tests: its
 * supports_interface says yes to everything, is_valid_signature accepts anything, and its
 * execute_from_outside_v2 returns without running the calls it was given. The devnet runs native
 * classes only, so the test registers it in the devnet it runs in this process (test-only: the
 * devnet's own ClassStore.addNative, as its genesis declares its classes), then deploys it
 * through the Universal Deployer like any contract.
 */
import type { Devnet as DevnetCore } from '@l2wallet/devnet';
import { type Account, hash } from 'starknet';

import { receiptOf, type Stack } from './helpers';

/** starknet.js 10's Universal Deployer. */
const UDC = '0x2ceed65a4bd731034c01113685c831b01c15d7d432f71afb1cf1634b53a2125';
export const FAKE_SNIP9_CLASS_HASH = '0x5eaf5eaf5eaf';
const VALID = 0x56414c4944n;

type NativeClass = Parameters<DevnetCore['classes']['addNative']>[0];

function fakeSnip9Class(): NativeClass {
  const functions = {
    supports_interface: () => [1n],
    is_valid_signature: () => [VALID],
    // Span<Span<felt252>> of no results: the calls were never run.
    execute_from_outside_v2: () => [0n],
    execute_from_outside: () => [0n],
  };
  const bySelector = new Map();
  const names = new Map();
  for (const [name, fn] of Object.entries(functions)) {
    bySelector.set(BigInt(hash.getSelectorFromName(name)), fn);
    names.set(BigInt(hash.getSelectorFromName(name)), name);
  }
  return {
    name: 'Fake SNIP-9 account (test)',
    classHash: BigInt(FAKE_SNIP9_CLASS_HASH),
    abi: [],
    functions: bySelector,
    functionNames: names,
  };
}

/** Registers the fake class (once per devnet) and deploys one instance with `deployer`. */
export async function deployFakeSnip9(stack: Stack, deployer: Account, salt: string) {
  const core = stack.devnet.devnet;
  if (!core.classes.get(BigInt(FAKE_SNIP9_CLASS_HASH), 0)) {
    core.classes.addNative(fakeSnip9Class(), 0);
  }
  const { transaction_hash } = await deployer.execute({
    contractAddress: UDC,
    entrypoint: 'deploy_contract',
    calldata: [FAKE_SNIP9_CLASS_HASH, salt, 0, 0],
  });
  await receiptOf(stack, transaction_hash);
  return hash.calculateContractAddressFromHash(salt, FAKE_SNIP9_CLASS_HASH, [], 0);
}
