/**
 * The contract reads the paymaster makes, each one starknet_call: ERC-20 balances and decimals,
 * SRC-5 introspection and SNIP-6 signature checks.
 */
import { type Call, callJson, SELECTORS, VALID } from '../protocol/calls';
import { type Felt, u256Join } from '../protocol/felt';
import { NodeRpcError, type StarknetNode } from './client';

const read = (node: StarknetNode, call: Call) => node.call(callJson(call));

export async function erc20Balance(node: StarknetNode, token: Felt, owner: Felt): Promise<bigint> {
  const [low, high = 0n] = await read(node, {
    to: token,
    selector: SELECTORS.balanceOf,
    calldata: [owner],
  });
  return u256Join(low, high);
}

export async function erc20Decimals(node: StarknetNode, token: Felt): Promise<number> {
  const [decimals] = await read(node, { to: token, selector: SELECTORS.decimals, calldata: [] });
  return Number(decimals);
}

/**
 * SRC-5 supports_interface; a contract without it (or failing) answers false, as starknet.js reads
 * it.
 */
export async function supportsInterface(
  node: StarknetNode,
  address: Felt,
  interfaceId: Felt,
): Promise<boolean> {
  try {
    const [answer] = await read(node, {
      to: address,
      selector: SELECTORS.supportsInterface,
      calldata: [interfaceId],
    });
    return answer !== undefined && answer !== 0n;
  } catch (error) {
    if (error instanceof NodeRpcError) return false;
    throw error;
  }
}

/**
 * SNIP-6 is_valid_signature(hash, signature) on a deployed account: 'VALID', or why not (an
 * account that panics on a malformed signature answers with its revert reason).
 */
export async function checkSignature(
  node: StarknetNode,
  account: Felt,
  messageHash: Felt,
  signature: readonly Felt[],
): Promise<{ valid: true } | { valid: false; why: string }> {
  try {
    const [answer] = await read(node, {
      to: account,
      selector: SELECTORS.isValidSignature,
      calldata: [messageHash, BigInt(signature.length), ...signature],
    });
    return answer === VALID
      ? { valid: true }
      : { valid: false, why: 'the account does not accept this signature for the typed data' };
  } catch (error) {
    if (!(error instanceof NodeRpcError)) throw error;
    return {
      valid: false,
      why: `the account refused the signature: ${error.nodeMessage}${error.data ? ` ${JSON.stringify(error.data)}` : ''}`,
    };
  }
}
