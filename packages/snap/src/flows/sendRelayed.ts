/**
 * The paymaster route of the send path (send.ts; `details.feeMode: {mode: 'default', gasToken}`):
 * the network's SNIP-29 paymaster builds an outside execution of the calls (deploy_and_invoke for
 * an account not deployed yet) with the fee as a gas token transfer; it is checked against the
 * calls before the dialog (starknet/paymaster.ts) and, once approved, signed and handed back for
 * a relayer to submit. Round trips: one batch (with the preview's simulation when the snap guessed
 * the account's state right) and one build before the dialog, one execute after.
 */
import { ResourceUnavailableError } from '@metamask/snaps-sdk';
import { validate } from 'superstruct';

import type { AccountKey } from '../keys';
import { signHash } from '../keys/signing';
import type { ChainContext } from '../node/chain';
import type { BuiltTransaction } from '../node/paymaster';
import { readTokenMetadata } from '../node/tokens';
import { localDeployHash, noteDeploySubmitted, withAccountLock } from '../node/nonces';
import { invalidParams } from '../errors';
import { V3_ONLY_MEMBERS, type TxDetails } from '../starknet/details';
import { readSimulation, simulationCall, type SimulationAnswer } from '../node/simulate';
import {
  buildRequest,
  checkRelayedExecution,
  tipText,
  executionParameters,
  NotAsApproved,
  type FeeMode,
  type PaymasterDeployment,
  type RelayedFee,
} from '../starknet/paymaster';
import type { TxCall } from '../starknet/transaction';
import { TypedDataStruct, typedDataHash, type TypedDataValue } from '../starknet/typedData';
import { requireSignable } from '../starknet/typedData/check';
import { isOutsideExecution, readOutsideExecution } from '../starknet/typedData/outsideExecution';
import { findTokenIn } from '../starknet/tokens';
import { stateStore, tokensOf } from '../state';
import type { RelayedFeeView } from '../ui';
import { accountDeploymentData, guessedNonce, knownDeployHash, saveDeployment } from './accounts';
import {
  refusedSimulation,
  relayedQueries,
  simulateRelayedCalls,
  withRevertReason,
} from './preview';
import { possiblySubmitted } from './relayedLost';
import type { PreparedCommon, RidingSimulation, SendOutcome, SendRequest } from './sendTypes';

/** A send relayed by the network's paymaster, the fee paid in a gas token. */
export type PreparedRelayed = PreparedCommon & {
  route: 'paymaster';
  feeMode: FeeMode;
  /** The calls the account signs before the fee transfer. */
  calls: readonly TxCall[];
  deployment?: PaymasterDeployment | undefined;
  built: BuiltTransaction;
  typedData: TypedDataValue;
  /** The hash the account signs. */
  messageHash: string;
  fee: RelayedFee;
  gasToken: { symbol: string; decimals: number };
  /** With a preview: the simulation of the calls as the account runs them. */
  simulation?: SimulationAnswer | undefined;
};

/** Refuses the TxDetails members a relayed transaction cannot carry. */
export function requireRelayable(request: SendRequest, details: TxDetails, field: string): FeeMode {
  const feeMode = details.feeMode as FeeMode;
  if (request.kind === 'declare') {
    throw invalidParams(
      `${field}.feeMode`,
      'is not available for a declaration: a paymaster relays calls, and a class is declared by the account itself (fees in STRK)',
    );
  }
  for (const member of V3_ONLY_MEMBERS) {
    // The tip is SNIP-29's too: it goes in the fee mode.
    if (member !== 'tip' && details[member] !== undefined) {
      throw invalidParams(
        `${field}.${member}`,
        'does not apply with feeMode: a relayer sends the transaction and the account signs only its calls and the fee transfer',
      );
    }
  }
  return details.tip === undefined ? feeMode : { ...feeMode, tip: details.tip };
}

/** The paymaster built something the snap will not sign: -32002, nothing signed or sent. */
function notSigned(chain: ChainContext, reason: string): Error {
  return new ResourceUnavailableError(
    `The paymaster (${chain.paymaster.host}) built an outside execution the snap will not sign: ${reason}. Nothing was signed or sent.`,
    { retryable: false, reason: 'not as approved' },
  );
}

/**
 * The calls the account signs: the request's, or for a deployment alone (which carries no fee
 * transfer, so SNIP-29 relays it only sponsored) one call, a read of its own balance of the gas
 * token, for the deployment to go with.
 */
function relayedCalls(key: AccountKey, request: SendRequest, gasToken: string): readonly TxCall[] {
  return request.kind === 'invoke'
    ? request.calls
    : [{ contractAddress: gasToken, entrypoint: 'balance_of', calldata: [key.address] }];
}

/**
 * The preview's simulation riding in the account batch (prepareSend), on a guess of what the
 * batch finds: deployed at the nonce the snap expects (this execution's, else the one kept with
 * its last send from the account: guessedNonce; an outside execution leaves it as it was); else,
 * for an account this execution relayed the deployment of or the snap's records show deployed,
 * at nonce 0 (the nonce of one that only ever sent relayed transactions); else, as for the fresh
 * accounts this route is for, not deployed, with the deployment first. Used only when the batch
 * confirms the guess: then it is the simulation prepareRelayed would make beside the build; else
 * dropped unread, and that one runs as without it.
 */
export async function batchedRelayedSimulation(
  key: AccountKey,
  chain: ChainContext,
  request: SendRequest,
  feeMode: FeeMode,
): Promise<RidingSimulation> {
  const chainId = chain.network.chainId;
  let expected = await guessedNonce(chainId, key.address);
  if (
    expected === undefined &&
    (localDeployHash(chainId, key.address) !== undefined ||
      (await stateStore.pick((state) => knownDeployHash(state, chainId, key.address))) !== '')
  ) {
    expected = 0n;
  }
  const includeDeploy = request.kind === 'deploy' || expected === undefined;
  const nonce = expected ?? 0n;
  const calls = relayedCalls(key, request, feeMode.gasToken);
  const queries = relayedQueries(key, chainId, calls, includeDeploy, nonce);
  return {
    call: simulationCall(queries, true),
    use: (answer, snapshot) => {
      const deploys = request.kind === 'deploy' || !snapshot.deployed;
      if (deploys !== includeDeploy || (!deploys && snapshot.nonce !== nonce)) {
        return undefined;
      }
      try {
        return readSimulation(answer, queries.length, chain.rpc.url);
      } catch (error) {
        return refusedSimulation(error);
      }
    },
  };
}

/** Has the paymaster build the outside execution and checks it: everything the dialog shows. */
export async function prepareRelayed(
  common: PreparedCommon,
  feeMode: FeeMode,
  preview = false,
  simulated?: SimulationAnswer,
): Promise<PreparedRelayed> {
  const { chain, key, request, includeDeploy } = common;
  const chainId = chain.network.chainId;
  const calls = relayedCalls(key, request, feeMode.gasToken);
  const deployment = includeDeploy ? accountDeploymentData(key) : undefined;
  const { transaction, parameters } = buildRequest(key.address, calls, feeMode, deployment);
  const tokens = tokensOf(await stateStore.read(), chainId);
  // The simulation that rode in the account batch, else one beside the build.
  const simulating =
    simulated !== undefined || !preview
      ? Promise.resolve(simulated)
      : simulateRelayedCalls(common, calls);
  const [built, token, simulation] = await Promise.all([
    chain.paymaster.buildTransaction(transaction, parameters).catch(async (error: unknown) => {
      throw await withRevertReason(error, simulating, chain.paymaster.host, includeDeploy);
    }),
    findTokenIn(tokens, feeMode.gasToken) ?? readTokenMetadata(chain, feeMode.gasToken),
    simulating,
  ]);
  if (built.type !== transaction.type) {
    throw notSigned(chain, `it built a ${built.type} where ${String(transaction.type)} was asked`);
  }
  const [invalid, typedData] = validate(built.typedData, TypedDataStruct);
  if (invalid || !isOutsideExecution(typedData)) {
    throw notSigned(chain, 'its typed data is not a SNIP-9 outside execution');
  }
  let fee: RelayedFee;
  let messageHash: string;
  try {
    // As any typed data the snap signs: bound to this network, only declared members, no
    // redeclared basic type; then read as it is hashed and compared with the approved calls.
    requireSignable(typedData, chainId);
    const view = readOutsideExecution(typedData, tokens);
    fee = checkRelayedExecution(
      view,
      calls,
      feeMode.gasToken,
      built.fee.suggestedMaxFeeInGasToken,
      Math.floor(Date.now() / 1000),
    );
    messageHash = typedDataHash(typedData, key.address, 'typed_data');
  } catch (error) {
    throw notSigned(
      chain,
      error instanceof NotAsApproved || error instanceof Error
        ? error.message.replace(/^Invalid params: /u, '')
        : 'its typed data cannot be read',
    );
  }
  return {
    ...common,
    route: 'paymaster',
    feeMode,
    calls,
    deployment,
    built,
    typedData,
    messageHash,
    fee,
    gasToken: { symbol: token.symbol, decimals: token.decimals },
    simulation,
  };
}

/** The tip the relayed transaction pays, as the dialog shows it; none unless one was given. */
export function relayedTip(prepared: PreparedRelayed): string | undefined {
  const { tip } = prepared.feeMode;
  return tip === undefined ? undefined : tipText(tip);
}

/** What a dialog shows of a relayed transaction's fee and relayer. */
export function relayedFee(prepared: PreparedRelayed): RelayedFeeView {
  const { fee, built, gasToken, chain } = prepared;
  return {
    ...gasToken,
    maxFee: fee.amount,
    estimatedFee: built.fee.estimatedFeeInGasToken,
    paymasterHost: chain.paymaster.host,
    relayer: fee.caller,
    recipient: fee.recipient,
    validUntil: fee.executeBefore,
    deploys: prepared.includeDeploy,
    tip: relayedTip(prepared),
  };
}

/**
 * Signs the checked outside execution and has the paymaster's relayer submit it (with the
 * account's deployment in the same transaction when it goes first); the relayer's transaction
 * hash is the send's. Under the account's lock, so a deployment this sends is known to the others.
 */
export async function sendRelayed(prepared: PreparedRelayed): Promise<SendOutcome> {
  const { chain, key, request, built } = prepared;
  const chainId = chain.network.chainId;
  const invoke = {
    user_address: key.address,
    typed_data: built.typedData,
    signature: signHash(key, prepared.messageHash),
  };
  const transaction = prepared.deployment
    ? { type: 'deploy_and_invoke', invoke, deployment: prepared.deployment }
    : { type: 'invoke', invoke };
  return withAccountLock(chainId, key.address, async (): Promise<SendOutcome> => {
    let transactionHash: string;
    try {
      transactionHash = await chain.paymaster.executeTransaction(
        transaction,
        executionParameters(prepared.feeMode),
      );
    } catch (error) {
      // Sent: whatever failed, the relayer may have submitted it.
      throw await possiblySubmitted(prepared, error);
    }
    if (!prepared.deployment) {
      return { transactionHash };
    }
    // The relayer's transaction deploys the account: its nonce stays 0 (an outside execution
    // does not use the account's nonce).
    noteDeploySubmitted(chainId, key.address, transactionHash, false);
    await saveDeployment(key, chainId, transactionHash, true, request.kind === 'deploy');
    return { transactionHash, deployTxnHash: transactionHash };
  });
}
