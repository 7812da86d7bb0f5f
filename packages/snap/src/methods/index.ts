/**
 * THE method table. A method is callable only if it is listed here; anything else is -32601.
 * One file per method in this folder; the dispatcher adds the `l2_` and `starkNet_` prefixes.
 */
import type { RegisteredMethod } from '../rpc/dispatcher';
import { addErc20Token } from './addErc20Token';
import { createAccount } from './createAccount';
import { declareContract } from './declareContract';
import { displayPrivateKey } from './displayPrivateKey';
import { estimateAccountDeployFee } from './estimateAccountDeployFee';
import { estimateFee } from './estimateFee';
import { executeTxn } from './executeTxn';
import { extractPublicKey } from './extractPublicKey';
import { getCurrentNetwork } from './getCurrentNetwork';
import { getDeploymentData } from './getDeploymentData';
import { getErc20TokenBalance } from './getErc20TokenBalance';
import { getTransactions } from './getTransactions';
import { getTransactionStatus } from './getTransactionStatus';
import { recoverAccounts } from './recoverAccounts';
import { signDeclareTransaction } from './signDeclareTransaction';
import { signMessage } from './signMessage';
import { signTransaction } from './signTransaction';
import { switchNetwork } from './switchNetwork';
import { verifySignedMessage } from './verifySignedMessage';

export const METHODS: readonly RegisteredMethod[] = [
  // Network
  getCurrentNetwork,
  switchNetwork,
  // Accounts and keys
  createAccount,
  estimateAccountDeployFee,
  recoverAccounts,
  extractPublicKey,
  getDeploymentData,
  displayPrivateKey,
  // Signing
  signMessage,
  verifySignedMessage,
  signTransaction,
  signDeclareTransaction,
  // Sending
  estimateFee,
  executeTxn,
  declareContract,
  // Tokens and history
  addErc20Token,
  getErc20TokenBalance,
  getTransactions,
  getTransactionStatus,
];
