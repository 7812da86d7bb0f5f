/**
 * The one send path of the snap's accounts: an invoke (l2_executeTxn, with the account's
 * deployment first when it is not deployed yet), a declaration (l2_declareContract) and the
 * account's deployment alone (l2_createAccount with deploy: true).
 *
 * prepareSend reads the account (one batch: deployed? nonce, fee-token balance) and plans the
 * fee (fees.ts: one estimate); the method shows the dialog; send signs and submits under the
 * account's lock with the next nonce, and stores the records. Round trips: one batch and one
 * estimate before the dialog; after approval one read (the nonce, or deployed? and nonce when the
 * deployment goes first; none with the caller's nonce) and one submission per transaction.
 */
import { STRK_TOKEN_ADDRESS } from '@l2wallet/starknet-constants';
import { InvalidInputError } from '@metamask/snaps-sdk';

import type { AccountKey } from '../keys';
import { signHash } from '../keys/signing';
import {
  readAccountSnapshot,
  readAccountState,
  readNonce,
  type AccountSnapshot,
} from '../node/accounts';
import type { BatchResult, RpcCall } from '../node/client';
import type { ChainContext } from '../node/chain';
import {
  localDeployHash,
  nextNonce,
  noteDeploySubmitted,
  submitWithNonce,
  withAccountLock,
} from '../node/nonces';
import { submitTransaction } from '../node/submit';
import {
  estimateDetails,
  givenBounds,
  givenDetails,
  type TxDetails,
  type V3Details,
} from '../starknet/details';
import type { ResourceBounds } from '../starknet/fees';
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
import { formatStrk } from '../starknet/units';
import { stateStore, upsertTransaction, type TransactionRecord } from '../state';
import type { TransactionFieldsView } from '../ui';
import { saveDeployment } from './accounts';
import { planFees, type FeePlan, type PlannedTransaction } from './fees';

/** What is sent: the request's own transaction. */
export type SendRequest =
  | { kind: 'invoke'; calls: readonly TxCall[] }
  | { kind: 'declare'; declare: DeclarePayload }
  /** The account's deployment alone. */
  | { kind: 'deploy' };

export type PreparedSend = {
  chain: ChainContext;
  key: AccountKey;
  request: SendRequest;
  details: TxDetails | undefined;
  snapshot: AccountSnapshot;
  /** The account's deployment is sent first (or is the request). */
  includeDeploy: boolean;
  /** The nonce of the request's transaction: the caller's, or the account's next as read now. */
  nonce: bigint;
  fixedNonce?: bigint | undefined;
  /** The fee plan: bounds of [deployment?, request's transaction?] in that order. */
  plan: FeePlan;
};

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

/** Reads the account and plans the fee of `request`: everything the dialog shows. */
export async function prepareSend(
  chain: ChainContext,
  key: AccountKey,
  request: SendRequest,
  details: TxDetails | undefined,
  options: SendOptions = {},
): Promise<PreparedSend> {
  const chainId = chain.network.chainId;
  let { snapshot } = options;
  if (!snapshot) {
    let also: BatchResult[];
    [snapshot, also] = await readAccountSnapshot(
      chain,
      key.address,
      STRK_TOKEN_ADDRESS,
      options.also,
    );
    options.check?.(snapshot, also);
  }
  const includeDeploy = request.kind === 'deploy' || !snapshot.deployed;
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
    alwaysEstimate: options.alwaysEstimate,
    field: options.field ?? 'details',
    sign: (tx) => sign(key, tx),
  });
  return { chain, key, request, details, snapshot, includeDeploy, nonce, fixedNonce, plan };
}

/** Fails before any dialog when the account cannot pay the most the transactions may cost. */
export function requireFunds(prepared: PreparedSend, what: string): void {
  const { snapshot, plan, key } = prepared;
  const balance = snapshot.feeBalance;
  const needed = plan.maxCharge;
  if (balance >= needed) {
    return;
  }
  const missing = needed - balance;
  throw new InvalidInputError(
    `Not enough STRK to pay for ${what}: fund the account ${key.address} with at least ${formatStrk(missing)} (${missing} FRI). It holds ${formatStrk(balance)} and the maximum fee is ${formatStrk(needed)} (${needed} FRI).`,
    {
      address: key.address,
      balance: balance.toString(10),
      maxFee: needed.toString(10),
      missing: missing.toString(10),
      unit: 'FRI',
    },
  );
}

/** The bounds of the request's own transaction. */
function ownBounds(prepared: PreparedSend): ResourceBounds {
  return prepared.plan.bounds[prepared.plan.bounds.length - 1];
}

/** What the transaction dialog shows of the request's own transaction and the fee. */
export function sendFields(prepared: PreparedSend): TransactionFieldsView {
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

/** The record of the request's own transaction. */
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
 * Signs and sends what prepareSend planned, after the user approved it, and stores the records.
 * Under the account's lock: the deployment first when the account is still not deployed (checked
 * again there: another approved request may have deployed it since), saved as soon as the node
 * takes it; then the request's transaction with the caller's nonce or the next one.
 */
export async function send(prepared: PreparedSend): Promise<SendOutcome> {
  const { chain, key, request, details } = prepared;
  const chainId = chain.network.chainId;
  const [deployBounds] = prepared.plan.bounds;
  const outcome = await withAccountLock(chainId, key.address, async (): Promise<SendOutcome> => {
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
  const record = outcome.transactionHash ? recordOf(prepared, outcome.transactionHash) : undefined;
  if (record) {
    await stateStore.update((state) => {
      upsertTransaction(state, record);
    });
  }
  return outcome;
}
