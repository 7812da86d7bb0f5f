/**
 * The chain methods (issue 4), one file each; methods/index.ts adds them to THE method table.
 * l2_createAccount with deploy: true, on-chain l2_extractPublicKey and on-chain
 * l2_verifySignedMessage extend the existing methods through src/chain/.
 */
import type { RegisteredMethod } from '../rpc/dispatcher';
import { declareContract } from './declareContract';
import { estimateAccountDeployFee } from './estimateAccountDeployFee';
import { estimateFee } from './estimateFee';
import { executeTxn } from './executeTxn';
import { getErc20TokenBalance } from './getErc20TokenBalance';
import { getTransactions } from './getTransactions';
import { getTransactionStatus } from './getTransactionStatus';
import { recoverAccounts } from './recoverAccounts';

export const CHAIN_METHODS: readonly RegisteredMethod[] = [
  estimateAccountDeployFee,
  estimateFee,
  executeTxn,
  declareContract,
  getErc20TokenBalance,
  getTransactions,
  getTransactionStatus,
  recoverAccounts,
];
