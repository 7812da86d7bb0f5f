/**
 * What the chain tests ask EntryPoint v0.6 and the bundler, written once: the EntryPoint's own
 * ABI (so hashes and verdicts come from the contract, never from the snap's code), the operation
 * a wallet drafts from eth_prepareUserOperation's answer, and the wait for its receipt.
 */
import { rpcResponse } from '@l2wallet/testkit';
import type { EthBaseUserOperation } from '@metamask/keyring-api';
import type { TransactionReceipt } from 'ethers';
import type { Hex } from 'viem';

import type { UserOperation } from '../../src/evm/userOperation';

const USER_OPERATION =
  '(address sender,uint256 nonce,bytes initCode,bytes callData,uint256 callGasLimit,uint256 verificationGasLimit,uint256 preVerificationGas,uint256 maxFeePerGas,uint256 maxPriorityFeePerGas,bytes paymasterAndData,bytes signature)';

export const ENTRY_POINT_ABI = [
  'function getNonce(address sender, uint192 key) view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  `function getUserOpHash(${USER_OPERATION} userOp) view returns (bytes32)`,
  `function handleOps(${USER_OPERATION}[] ops, address beneficiary)`,
  'error FailedOp(uint256 opIndex, string reason)',
];

/**
 * What MetaMask's UserOperationController drafts between prepare and patch: prepare's fields and
 * gas limits (which must be there), the bundler's fast fees, prepare's dummy paymaster data and
 * signature.
 */
export async function draftUserOperation(
  bundlerUrl: string,
  sender: string,
  base: EthBaseUserOperation,
): Promise<UserOperation> {
  expect(base.gasLimits).toBeDefined();
  const prices = (await rpcResponse(bundlerUrl, 'pimlico_getUserOperationGasPrice', [])).result as {
    fast: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex };
  };
  return {
    sender: sender as Hex,
    nonce: base.nonce as Hex,
    initCode: base.initCode as Hex,
    callData: base.callData as Hex,
    callGasLimit: base.gasLimits!.callGasLimit as Hex,
    verificationGasLimit: base.gasLimits!.verificationGasLimit as Hex,
    preVerificationGas: base.gasLimits!.preVerificationGas as Hex,
    maxFeePerGas: prices.fast.maxFeePerGas,
    maxPriorityFeePerGas: prices.fast.maxPriorityFeePerGas,
    paymasterAndData: base.dummyPaymasterAndData as Hex,
    signature: base.dummySignature as Hex,
  };
}

export type UserOperationReceipt = {
  success: boolean;
  receipt: { status: string; transactionHash: string };
};

/** Polls `read` every 100 ms until it answers something, for at most 30 s. */
async function pollFor<T>(what: string, read: () => Promise<T | null | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const result = await read();
    if (result) {
      return result;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${what} within 30 s`);
}

/** Polls the bundler for the receipt of the operation `hash` (30 s at most). */
export async function waitForUserOperationReceipt(
  bundlerUrl: string,
  hash: unknown,
): Promise<UserOperationReceipt> {
  return pollFor('user operation receipt', async () => {
    const { result } = await rpcResponse<UserOperationReceipt | null>(
      bundlerUrl,
      'eth_getUserOperationReceipt',
      [hash],
    );
    return result;
  });
}

/**
 * A transaction's receipt, read until anvil has mined it. Not ethers' waitForTransaction: that
 * reads the receipt once, then waits for a block newer than the first one its poller sees; when
 * anvil's automine lands between the two, no newer block ever comes and the wait times out.
 */
export async function waitForReceipt(
  provider: { getTransactionReceipt(hash: string): Promise<TransactionReceipt | null> },
  hash: string,
): Promise<TransactionReceipt> {
  return pollFor('transaction receipt', () => provider.getTransactionReceipt(hash));
}
