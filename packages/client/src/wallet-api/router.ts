/**
 * The request router: each wallet API request type and what the snap does for it (the table in
 * the README). A handler checks its whole payload (payloads.ts) before it calls the snap.
 */
import type {
  AccountDeploymentData,
  AddDeclareTransactionParameters,
  AddInvokeTransactionParameters,
  AddStarknetChainParameters,
  SwitchStarknetChainParameters,
  WatchAssetParameters,
} from '@starknet-io/types-js';

import { SUPPORTED_SPEC_VERSIONS, SUPPORTED_WALLET_API_VERSIONS } from './constants';
import { WalletApiError, userRefused } from './errors';
import {
  checkAddedChain,
  checkRequest,
  isSilent,
  toDeclarePayload,
  toSnapCalls,
  toSwitchTarget,
  toTypedData,
  toWatchedToken,
  type WalletApiMethod,
} from './payloads';
import type { WalletSession } from './session';

type Handler = (session: WalletSession, params: unknown) => unknown;

async function deploymentData(session: WalletSession): Promise<AccountDeploymentData> {
  const data = await session.client.getDeploymentData(await session.currentAccount());
  if (data.deployed)
    throw new WalletApiError(
      'ACCOUNT_ALREADY_DEPLOYED',
      `The account ${data.address} is already deployed`,
    );
  const { deployed: _deployed, ...deployment } = data;
  return deployment;
}

/**
 * The STRK20 privacy requests: the user has no registration in the privacy pool, and this
 * wallet cannot make one (the STRK20 prover is not public; see the README).
 */
function notRegistered(): never {
  throw new WalletApiError(
    'NOT_REGISTERED',
    'This wallet has no STRK20 privacy pool registration and cannot make one: the STRK20 (SNIP-36) prover is not public, so it neither registers, proves nor reads private balances.',
  );
}

async function addInvokeTransaction(session: WalletSession, params: unknown) {
  if ((params as { proof?: unknown } | undefined)?.proof !== undefined)
    throw new WalletApiError(
      'UNKNOWN_ERROR',
      'This wallet does not send SNIP-36 proofs (STRK20 calls): the invoke was not sent.',
    );
  const calls = toSnapCalls(params as AddInvokeTransactionParameters);
  const { address, chainId } = await session.currentAccount();
  return session.client.executeTxn({ address, calls, chainId });
}

async function addDeclareTransaction(session: WalletSession, params: unknown) {
  const contractPayload = toDeclarePayload(params as AddDeclareTransactionParameters);
  const { address: senderAddress, chainId } = await session.currentAccount();
  return session.client.declareContract({ senderAddress, chainId, contractPayload });
}

async function signTypedData(session: WalletSession, params: unknown) {
  const typedData = toTypedData(params);
  const { address: signerAddress, chainId } = await session.currentAccount();
  const signature = await session.client.signMessage({
    typedDataMessage: typedData as never,
    signerAddress,
    chainId,
  });
  return Array.isArray(signature) ? signature : signature.split(',');
}

async function watchAsset(session: WalletSession, params: unknown): Promise<boolean> {
  const token = toWatchedToken(params as WatchAssetParameters);
  const { address, chainId } = await session.currentAccount();
  await session.client.addErc20Token({ address, chainId, ...token });
  return true;
}

async function switchStarknetChain(session: WalletSession, params: unknown): Promise<boolean> {
  const target = toSwitchTarget(params as SwitchStarknetChainParameters);
  // Read before switching: a chain id not known yet would hide the change.
  const before = session.lastChainId ?? (await session.currentChainId());
  if (before === target) return true;
  if (!(await session.client.switchNetwork({ chainId: target })))
    throw userRefused('The user declined to switch the network.');
  await session.refresh(before);
  return true;
}

const HANDLERS: Record<WalletApiMethod, Handler> = {
  wallet_getPermissions: (session) => session.permissions(),
  wallet_requestAccounts: (session, params) => session.requestAccounts(isSilent(params)),
  wallet_requestChainId: (session) => session.currentChainId(),
  wallet_deploymentData: deploymentData,
  wallet_addInvokeTransaction: addInvokeTransaction,
  wallet_addDeclareTransaction: addDeclareTransaction,
  wallet_signTypedData: signTypedData,
  wallet_watchAsset: watchAsset,
  wallet_switchStarknetChain: switchStarknetChain,
  wallet_addStarknetChain: (_session, params) => {
    checkAddedChain(params as AddStarknetChainParameters);
    return true;
  },
  wallet_supportedSpecs: () => [...SUPPORTED_SPEC_VERSIONS],
  wallet_supportedWalletApi: () => [...SUPPORTED_WALLET_API_VERSIONS],
  wallet_strk20InvokeTransaction: notRegistered,
  wallet_strk20PrepareInvoke: notRegistered,
  wallet_strk20Balances: notRegistered,
  wallet_strk20ShadowAccountCommitment: notRegistered,
};

/** Answers one request `{type, params}` once its envelope is checked (checkRequest). */
export async function routeRequest(session: WalletSession, call: unknown): Promise<unknown> {
  const { type, params } = checkRequest(call);
  return HANDLERS[type](session, params);
}
