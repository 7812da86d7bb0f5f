/**
 * Calls and the few contract entry points the paymaster writes calls to: an ERC-20 transfer (the
 * fee), the Universal Deployer (the user's account), and the relayer's own multicall.
 */
import { hash } from 'starknet';

import type { Felt } from './felt';
import { toHex, u256Felts } from './felt';

export interface Call {
  to: Felt;
  selector: Felt;
  calldata: Felt[];
}

/** A call as SNIP-29's CALL and Starknet JSON-RPC write it. */
export interface CallJson {
  to: string;
  selector: string;
  calldata: string[];
}

const selector = (name: string): Felt => BigInt(hash.getSelectorFromName(name));

export const SELECTORS = {
  transfer: selector('transfer'),
  balanceOf: selector('balance_of'),
  decimals: selector('decimals'),
  deployContract: selector('deploy_contract'),
  supportsInterface: selector('supports_interface'),
  isValidSignature: selector('is_valid_signature'),
  executeFromOutside: selector('execute_from_outside'),
  executeFromOutsideV2: selector('execute_from_outside_v2'),
};

/** The Universal Deployer starknet.js 10 uses: deploy_contract(class_hash, salt, not_from_zero, calldata). */
export const UDC_ADDRESS = 0x2ceed65a4bd731034c01113685c831b01c15d7d432f71afb1cf1634b53a2125n;

/** SNIP-6's answer of a valid signature: the short string 'VALID'. */
export const VALID = 0x56414c4944n;

export const callJson = (call: Call): CallJson => ({
  to: toHex(call.to),
  selector: toHex(call.selector),
  calldata: call.calldata.map(toHex),
});

export const sameCall = (a: Call, b: Call): boolean =>
  a.to === b.to &&
  a.selector === b.selector &&
  a.calldata.length === b.calldata.length &&
  a.calldata.every((value, i) => value === b.calldata[i]);

/** ERC-20 transfer(recipient, amount: u256). */
export function transferCall(token: Felt, recipient: Felt, amount: bigint): Call {
  return { to: token, selector: SELECTORS.transfer, calldata: [recipient, ...u256Felts(amount)] };
}

/** The calldata of a Cairo 1 account's __execute__(calls: Array<Call>). */
export function multicallCalldata(calls: readonly Call[]): Felt[] {
  const out: Felt[] = [BigInt(calls.length)];
  for (const call of calls) {
    out.push(call.to, call.selector, BigInt(call.calldata.length), ...call.calldata);
  }
  return out;
}

/** What SNIP-29 calls ACCOUNT_DEPLOYMENT_DATA: how to deploy a user's account. */
export interface Deployment {
  address: Felt;
  classHash: Felt;
  salt: Felt;
  calldata: Felt[];
}

/** The address a deploy-account transaction (deployer 0) gives this class, salt and calldata. */
export function counterfactualAddress(deployment: Omit<Deployment, 'address'>): Felt {
  return BigInt(
    hash.calculateContractAddressFromHash(
      deployment.salt,
      deployment.classHash,
      deployment.calldata,
      0,
    ),
  );
}

/**
 * The UDC call that deploys the account where a deploy-account transaction would: with
 * not_from_zero = false the address depends only on class, salt and calldata (deployer 0).
 */
export function deployCall(deployment: Deployment): Call {
  return {
    to: UDC_ADDRESS,
    selector: SELECTORS.deployContract,
    calldata: [
      deployment.classHash,
      deployment.salt,
      0n,
      BigInt(deployment.calldata.length),
      ...deployment.calldata,
    ],
  };
}
