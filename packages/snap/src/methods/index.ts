/**
 * THE method table. A method is callable only if it is listed here; anything else is -32601.
 * The chain methods (deploy, estimate, execute, declare, balances, history, recovery) are added
 * here by their own issue, one file each in this folder.
 */
import type { RegisteredMethod } from '../rpc/dispatcher';
import { addErc20Token } from './addErc20Token';
import { CHAIN_METHODS } from './chainMethods';
import { createAccount } from './createAccount';
import { displayPrivateKey } from './displayPrivateKey';
import { extractPublicKey } from './extractPublicKey';
import { getCurrentNetwork } from './getCurrentNetwork';
import { signDeclareTransaction } from './signDeclareTransaction';
import { signMessage } from './signMessage';
import { signTransaction } from './signTransaction';
import { switchNetwork } from './switchNetwork';
import { verifySignedMessage } from './verifySignedMessage';

export const METHODS: readonly RegisteredMethod[] = [
  getCurrentNetwork,
  switchNetwork,
  createAccount,
  extractPublicKey,
  displayPrivateKey,
  signMessage,
  verifySignedMessage,
  signTransaction,
  signDeclareTransaction,
  addErc20Token,
  ...CHAIN_METHODS,
];
