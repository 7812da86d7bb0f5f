/**
 * The one send path of the snap's accounts: an invoke (l2_executeTxn, with the account's
 * deployment first when it is not deployed yet), a declaration (l2_declareContract) and the
 * account's deployment alone (l2_createAccount with deploy: true).
 *
 * prepareSend reads the account (one batch: deployed? nonce, fee-token balance) and plans the
 * fee; the method shows the dialog; send signs, submits and stores the records. Two routes,
 * chosen by `details.feeMode`:
 * - `v3` (no fee mode): fees.ts plans the bounds (one estimate); send submits v3 transactions
 *   under the account's lock with the next nonce. Round trips: one batch and one estimate before
 *   the dialog; after approval one read (the nonce, or deployed? and nonce when the deployment
 *   goes first; none with the caller's nonce) and one submission per transaction.
 * - `paymaster` (`{mode: 'default', gasToken}`): the network's SNIP-29 paymaster builds an outside
 *   execution of the calls (deploy_and_invoke for an account not deployed yet) with the fee as a
 *   gas token transfer; it is checked against the calls before the dialog (starknet/paymaster.ts)
 *   and, once approved, signed and handed back for a relayer to submit. Round trips: one batch
 *   and one build before the dialog, one execute after.
 */
import { STRK_TOKEN_ADDRESS } from '@l2wallet/starknet-constants';
import { InvalidInputError, ResourceUnavailableError } from '@metamask/snaps-sdk';
import { validate } from 'superstruct';

import type { AccountKey } from '../keys';
import { signHash } from '../keys/signing';
import {
  readAccountSnapshot,
  readAccountState,
  readNonce,
  type AccountSnapshot,
} from '../node/accounts';
import { unavailability, type BatchResult, type RpcCall } from '../node/client';
import type { ChainContext } from '../node/chain';
import type { BuiltTransaction } from '../node/paymaster';
import { readTokenMetadata } from '../node/tokens';
import {
  localDeployHash,
  nextNonce,
  noteDeploySubmitted,
  submitWithNonce,
  withAccountLock,
} from '../node/nonces';
import { submitTransaction } from '../node/submit';
import { invalidParams } from '../errors';
import {
  estimateDetails,
  givenBounds,
  givenDetails,
  V3_ONLY_MEMBERS,
  type TxDetails,
  type V3Details,
} from '../starknet/details';
import type { ResourceBounds } from '../starknet/fees';
import {
  buildRequest,
  checkRelayedExecution,
  executionParameters,
  NotAsApproved,
  type FeeMode,
  type PaymasterDeployment,
  type RelayedFee,
} from '../starknet/paymaster';
import { declareRecord, invokeRecord } from '../starknet/records';
import {
  declareTransaction,
  deployAccountTransaction,
  invokeTransaction,
  QUERY_TX_VERSION,
  withSignature,
  type DeclarePayload,
  type Transaction,
  type TxCall,
  type TxVersion,
} from '../starknet/transaction';
import { TypedDataStruct, typedDataHash, type TypedDataValue } from '../starknet/typedData';
import { requireSignable } from '../starknet/typedData/check';
import { isOutsideExecution, readOutsideExecution } from '../starknet/typedData/outsideExecution';
import { findTokenIn } from '../starknet/tokens';
import { formatUnits } from '../starknet/units';
import { stateStore, tokensOf, upsertTransaction, type TransactionRecord } from '../state';
import type { RelayedFeeView, SendFeeView, TransactionFieldsView } from '../ui';
import { accountDeploymentData, saveDeployment } from './accounts';
import { planFees, type FeePlan, type PlannedTransaction } from './fees';

/** What is sent: the request's own transaction. */
export type SendRequest =
  | { kind: 'invoke'; calls: readonly TxCall[] }
  | { kind: 'declare'; declare: DeclarePayload }
  /** The account's deployment alone. */
  | { kind: 'deploy' };

type PreparedCommon = {
  chain: ChainContext;
  key: AccountKey;
  request: SendRequest;
  details: TxDetails | undefined;
  snapshot: AccountSnapshot;
  /** The account's deployment is sent first (or is the request). */
  includeDeploy: boolean;
};

/** A send as v3 transactions the account signs and the snap submits, fees in STRK. */
export type PreparedV3 = PreparedCommon & {
  route: 'v3';
  /** The nonce of the request's transaction: the caller's, or the account's next as read now. */
  nonce: bigint;
  fixedNonce?: bigint | undefined;
  /** The fee plan: bounds of [deployment?, request's transaction?] in that order. */
  plan: FeePlan;
};

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
};

export type PreparedSend = PreparedV3 | PreparedRelayed;

export type SendOptions = {
  /** Reads the snapshot goes out with (one batch); their answers come back as they are. */
  also?: readonly RpcCall[];
  /** Checks the snapshot (and the answers of `also`) before anything is estimated. */
  check?: (snapshot: AccountSnapshot, also: BatchResult[]) => void;
  /** The snapshot, when the caller read it already. */
  snapshot?: AccountSnapshot;
  /** Estimate even when the caller gave every bound (l2_estimateFee). */
  alwaysEstimate?: boolean;
  /** The name of the details param, for errors. */
  field?: string;
};

const sign = (key: AccountKey, tx: Transaction): Transaction =>
  withSignature(tx, signHash(key, tx.hash));

function deployTransaction(
  key: AccountKey,
  chainId: string,
  resourceBounds: ResourceBounds,
  version?: TxVersion,
): Transaction {
  return deployAccountTransaction({
    account: {
      address: key.address,
      classHash: key.classHash,
      salt: key.addressSalt,
      constructorCalldata: key.constructorCalldata,
    },
    chainId,
    details: { ...estimateDetails(0n), resourceBounds },
    version,
  });
}

/** The request's own transaction (none for a deployment alone), unsigned. */
function requestTransaction(
  key: AccountKey,
  chainId: string,
  request: SendRequest,
  details: V3Details,
  version?: TxVersion,
): Transaction | undefined {
  switch (request.kind) {
    case 'invoke':
      return invokeTransaction({
        senderAddress: key.address,
        calls: request.calls,
        chainId,
        details,
        version,
      });
    case 'declare':
      return declareTransaction({
        senderAddress: key.address,
        declare: request.declare,
        chainId,
        details,
        version,
      });
    default:
      return undefined;
  }
}

/** Refuses the TxDetails members a relayed transaction cannot carry. */
function requireRelayable(request: SendRequest, details: TxDetails, field: string): FeeMode {
  const feeMode = details.feeMode as FeeMode;
  if (request.kind === 'declare') {
    throw invalidParams(
      `${field}.feeMode`,
      'is not available for a declaration: a paymaster relays calls, and a class is declared by the account itself (fees in STRK)',
    );
  }
  for (const member of V3_ONLY_MEMBERS) {
    if (details[member] !== undefined) {
      throw invalidParams(
        `${field}.${member}`,
        'does not apply with feeMode: a relayer sends the transaction and the account signs only its calls and the fee transfer',
      );
    }
  }
  return feeMode;
}

/** Reads the account and plans the fee of `request`: everything the dialog shows. */
export async function prepareSend(
  chain: ChainContext,
  key: AccountKey,
  request: SendRequest,
  details: TxDetails | undefined,
  options: SendOptions = {},
): Promise<PreparedSend> {
  const field = options.field ?? 'details';
  const feeMode = details?.feeMode ? requireRelayable(request, details, field) : undefined;
  let { snapshot } = options;
  if (!snapshot) {
    let also: BatchResult[];
    [snapshot, also] = await readAccountSnapshot(
      chain,
      key.address,
      feeMode?.gasToken ?? STRK_TOKEN_ADDRESS,
      options.also,
    );
    options.check?.(snapshot, also);
  }
  const common = {
    chain,
    key,
    request,
    details,
    snapshot,
    includeDeploy: request.kind === 'deploy' || !snapshot.deployed,
  };
  return feeMode
    ? prepareRelayed(common, feeMode)
    : prepareV3(common, options.alwaysEstimate, field);
}

async function prepareV3(
  common: PreparedCommon,
  alwaysEstimate: boolean | undefined,
  field: string,
): Promise<PreparedV3> {
  const { chain, key, request, details, includeDeploy, snapshot } = common;
  const chainId = chain.network.chainId;
  const fixedNonce = request.kind === 'deploy' ? undefined : details?.nonce;
  const nonce = fixedNonce ?? (includeDeploy ? 1n : snapshot.nonce);
  const transactions: PlannedTransaction[] = [];
  if (includeDeploy) {
    const { resourceBounds } = estimateDetails(0n);
    transactions.push({
      query: deployTransaction(key, chainId, resourceBounds, QUERY_TX_VERSION),
      tip: 0n,
    });
  }
  const own = requestTransaction(
    key,
    chainId,
    request,
    estimateDetails(nonce, givenDetails(details)),
    QUERY_TX_VERSION,
  );
  if (own) {
    transactions.push({ query: own, given: givenBounds(details), tip: details?.tip ?? 0n });
  }
  const plan = await planFees(chain, transactions, {
    maxFee: details?.maxFee,
    skipValidate: details?.skipValidate,
    alwaysEstimate,
    field,
    sign: (tx) => sign(key, tx),
  });
  return { ...common, route: 'v3', nonce, fixedNonce, plan };
}

/** The paymaster built something the snap will not sign: -32002, nothing signed or sent. */
function notSigned(chain: ChainContext, reason: string): Error {
  return new ResourceUnavailableError(
    `The paymaster (${chain.paymaster.host}) built an outside execution the snap will not sign: ${reason}. Nothing was signed or sent.`,
    { retryable: false, reason: 'not as approved' },
  );
}

/**
 * A deployment alone carries no fee transfer, so SNIP-29 relays it only sponsored: with a gas
 * token the account's deployment goes with one call, a read of its own balance of that token.
 */
function deploymentCall(key: AccountKey, gasToken: string): TxCall {
  return { contractAddress: gasToken, entrypoint: 'balance_of', calldata: [key.address] };
}

async function prepareRelayed(common: PreparedCommon, feeMode: FeeMode): Promise<PreparedRelayed> {
  const { chain, key, request, includeDeploy } = common;
  const chainId = chain.network.chainId;
  const calls = request.kind === 'invoke' ? request.calls : [deploymentCall(key, feeMode.gasToken)];
  const deployment = includeDeploy ? accountDeploymentData(key) : undefined;
  const { transaction, parameters } = buildRequest(key.address, calls, feeMode, deployment);
  const tokens = tokensOf(await stateStore.read(), chainId);
  const [built, token] = await Promise.all([
    chain.paymaster.buildTransaction(transaction, parameters),
    findTokenIn(tokens, feeMode.gasToken) ?? readTokenMetadata(chain, feeMode.gasToken),
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
  };
}

/** Fails before any dialog when the account cannot pay the most the transactions may cost. */
export function requireFunds(prepared: PreparedSend, what: string): void {
  const { snapshot, key } = prepared;
  const balance = snapshot.feeBalance;
  const [needed, symbol, decimals, unit] =
    prepared.route === 'v3'
      ? [prepared.plan.maxCharge, 'STRK', 18, 'FRI']
      : [prepared.fee.amount, prepared.gasToken.symbol, prepared.gasToken.decimals, 'units'];
  if (balance >= needed) {
    return;
  }
  const missing = needed - balance;
  const amount = (value: bigint): string => formatUnits(value, decimals, symbol);
  throw new InvalidInputError(
    `Not enough ${symbol} to pay for ${what}: fund the account ${key.address} with at least ${amount(missing)} (${missing} ${unit}). It holds ${amount(balance)} and the maximum fee is ${amount(needed)} (${needed} ${unit}).`,
    {
      address: key.address,
      balance: balance.toString(10),
      maxFee: needed.toString(10),
      missing: missing.toString(10),
      unit: prepared.route === 'v3' ? 'FRI' : symbol,
    },
  );
}

/** The bounds of the request's own transaction. */
function ownBounds(prepared: PreparedV3): ResourceBounds {
  return prepared.plan.bounds[prepared.plan.bounds.length - 1];
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
  };
}

/** What a dialog shows of a v3 transaction: the request's own, and the fee of all. */
export function transactionFields(prepared: PreparedV3): TransactionFieldsView {
  const base = givenDetails(prepared.details);
  return {
    ...base,
    accountDeploymentData: base.accountDeploymentData ?? [],
    nonce: prepared.fixedNonce ?? `${prepared.nonce} (the account's next nonce)`,
    resourceBounds: ownBounds(prepared),
    maxCharge: prepared.plan.maxCharge,
    estimatedFee: prepared.plan.overallFee,
  };
}

/** The fee part of a sending dialog, on either route. */
export function sendFields(prepared: PreparedSend): SendFeeView {
  return prepared.route === 'paymaster'
    ? { relayed: relayedFee(prepared) }
    : { fields: transactionFields(prepared) };
}

export type SendOutcome = {
  /** The request's own transaction; for a deployment alone, the deployment when it was sent. */
  transactionHash?: string;
  /** The deployment this send made. */
  deployTxnHash?: string;
  /** A deployment alone found the account deployed already (by this snap: its hash). */
  alreadyDeployed?: { localHash?: string | undefined };
};

const ACTIONS: Record<SendRequest['kind'], string> = {
  invoke: 'Transaction',
  declare: 'Declaration',
  deploy: 'Account deployment',
};

/** The record of the request's own transaction (a deployment alone: saveDeployment's). */
function recordOf(prepared: PreparedSend, transactionHash: string): TransactionRecord | undefined {
  const { request, key, chain } = prepared;
  switch (request.kind) {
    case 'invoke':
      return invokeRecord(transactionHash, key.address, request.calls, chain.network.chainId);
    case 'declare':
      return declareRecord(
        transactionHash,
        key.address,
        request.declare.classHash,
        chain.network.chainId,
      );
    default:
      return undefined;
  }
}

/**
 * Signs and sends what prepareSend planned, after the user approved it, and stores the records
 * (the hash is the relayer's on the paymaster route).
 */
export async function send(prepared: PreparedSend): Promise<SendOutcome> {
  const outcome = prepared.route === 'v3' ? await sendV3(prepared) : await sendRelayed(prepared);
  const record = outcome.transactionHash ? recordOf(prepared, outcome.transactionHash) : undefined;
  if (record) {
    await stateStore.update((state) => {
      upsertTransaction(state, record);
    });
  }
  return outcome;
}

/**
 * Under the account's lock: the deployment first when the account is still not deployed (checked
 * again there: another approved request may have deployed it since), saved as soon as the node
 * takes it; then the request's transaction with the caller's nonce or the next one.
 */
async function sendV3(prepared: PreparedV3): Promise<SendOutcome> {
  const { chain, key, request, details } = prepared;
  const chainId = chain.network.chainId;
  const [deployBounds] = prepared.plan.bounds;
  return withAccountLock(chainId, key.address, async (): Promise<SendOutcome> => {
    let chainNonce: bigint | undefined;
    let deployTxnHash: string | undefined;
    if (prepared.includeDeploy) {
      const state = await readAccountState(chain.rpc, key.address);
      const localHash = localDeployHash(chainId, key.address);
      if (!state.deployed && localHash === undefined) {
        deployTxnHash = await submitTransaction(
          chain.rpc,
          sign(key, deployTransaction(key, chainId, deployBounds)),
          ACTIONS.deploy,
        );
        noteDeploySubmitted(chainId, key.address, deployTxnHash);
        await saveDeployment(key, chainId, deployTxnHash, true);
      } else if (request.kind === 'deploy') {
        return { alreadyDeployed: { localHash } };
      }
      chainNonce = state.nonce;
    }
    if (request.kind === 'deploy') {
      return { transactionHash: deployTxnHash, deployTxnHash };
    }
    const nonce =
      prepared.fixedNonce ??
      nextNonce(chainId, key.address, chainNonce ?? (await readNonce(chain.rpc, key.address)));
    const transactionHash = await submitWithNonce(chainId, key.address, nonce, async () => {
      const tx = requestTransaction(key, chainId, request, {
        ...givenDetails(details),
        nonce,
        resourceBounds: ownBounds(prepared),
      }) as Transaction;
      return submitTransaction(chain.rpc, sign(key, tx), ACTIONS[request.kind]);
    });
    return { transactionHash, deployTxnHash };
  });
}

/**
 * Signs the checked outside execution and has the paymaster's relayer submit it (with the
 * account's deployment in the same transaction when it goes first); the relayer's transaction
 * hash is the send's. Under the account's lock, so a deployment this sends is known to the others.
 */
async function sendRelayed(prepared: PreparedRelayed): Promise<SendOutcome> {
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
      const { unavailable, timedOut } = unavailability(error);
      if (unavailable && timedOut) {
        throw new ResourceUnavailableError(
          `The paymaster (${chain.paymaster.host}) did not answer in time after the signed execution was sent, so its relayer may have submitted it. It stays valid until ${new Date(Number(prepared.fee.executeBefore) * 1000).toISOString()}: check the account's transactions (l2_getTransactions) before sending it again.`,
          { retryable: false, timedOut: true },
        );
      }
      throw error;
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
