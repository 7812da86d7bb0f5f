/**
 * The v3 route of the send path (send.ts; no `details.feeMode`): v3 transactions the account
 * signs and the snap submits, fees in STRK. fees.ts plans the bounds (one estimate); sendV3
 * submits under the account's lock with the next nonce. Round trips: one batch and one estimate
 * before the dialog; after approval one read (the nonce, or deployed? and nonce when the
 * deployment goes first; none with the caller's nonce) and one submission per transaction.
 */
import type { AccountKey } from '../keys';
import { signHash } from '../keys/signing';
import { readAccountState, readNonce } from '../node/accounts';
import {
  localDeployHash,
  nextNonce,
  noteDeploySubmitted,
  submitWithNonce,
  withAccountLock,
} from '../node/nonces';
import type { ChainContext } from '../node/chain';
import { readSimulation, simulationCall, type SimulationAnswer } from '../node/simulate';
import { submitTransaction } from '../node/submit';
import {
  estimateDetails,
  givenBounds,
  givenDetails,
  v3Tip,
  type TxDetails,
  type V3Details,
} from '../starknet/details';
import type { ResourceBounds } from '../starknet/fees';
import {
  declareTransaction,
  deployAccountTransaction,
  invokeTransaction,
  QUERY_TX_VERSION,
  withSignature,
  type Transaction,
  type TxVersion,
} from '../starknet/transaction';
import type { TransactionFieldsView } from '../ui';
import { guessedNonce, saveDeployment } from './accounts';
import { planFees, type FeePlan, type PlannedTransaction } from './fees';
import type { PreparedCommon, RidingSimulation, SendOutcome, SendRequest } from './sendTypes';

/** A send as v3 transactions the account signs and the snap submits, fees in STRK. */
export type PreparedV3 = PreparedCommon & {
  route: 'v3';
  /** The nonce of the request's transaction: the caller's, or the account's next as read now. */
  nonce: bigint;
  fixedNonce?: bigint | undefined;
  /** The fee plan: bounds of [deployment?, request's transaction?] in that order. */
  plan: FeePlan;
};

const sign = (key: AccountKey, tx: Transaction): Transaction =>
  withSignature(tx, signHash(key, tx.hash));

/** The account's deployment transaction, unsigned (the query version for a simulation). */
export function deployTransaction(
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

/** The fee plan of the v3 transactions: the deployment when it goes first, then the request's. */
export async function prepareV3(
  common: PreparedCommon,
  alwaysEstimate: boolean | undefined,
  field: string,
  preview = false,
  simulated?: SimulationAnswer,
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
    transactions.push({ query: own, given: givenBounds(details), tip: v3Tip(details, field) });
  }
  const plan = await planFees(chain, transactions, {
    maxFee: details?.maxFee,
    skipValidate: details?.skipValidate,
    alwaysEstimate,
    preview,
    simulated,
    field,
    sign: (tx) => sign(key, tx),
  });
  return { ...common, route: 'v3', nonce, fixedNonce, plan };
}

/**
 * The preview's simulation of an invoke from a deployed account needs only its nonce from the
 * account batch: with the caller's nonce, or the one the snap expects the read to find (this
 * execution's, else the one kept with its last send: guessedNonce), it rides in that batch
 * (prepareSend), so the dialog waits for one round trip less. Its answer is used only when the
 * batch finds the account deployed at that nonce: then it is the very transaction prepareV3
 * would simulate; else it is dropped and the simulation runs after the batch, as without it.
 */
export async function batchedSimulation(
  key: AccountKey,
  chain: ChainContext,
  request: SendRequest,
  details: TxDetails | undefined,
): Promise<RidingSimulation | undefined> {
  if (request.kind !== 'invoke') {
    return undefined;
  }
  const chainId = chain.network.chainId;
  const nonce = details?.nonce ?? (await guessedNonce(chainId, key.address));
  if (nonce === undefined) {
    return undefined;
  }
  const own = requestTransaction(
    key,
    chainId,
    request,
    estimateDetails(nonce, givenDetails(details)),
    QUERY_TX_VERSION,
  ) as Transaction;
  const skipValidate = details?.skipValidate ?? true;
  const given = details?.nonce !== undefined;
  return {
    call: simulationCall([skipValidate ? own : sign(key, own)], skipValidate),
    // An undeployed account's is simulated again with its deployment.
    use: (answer, snapshot) =>
      snapshot.deployed && (given || nonce === snapshot.nonce)
        ? readSimulation(answer, 1, chain.rpc.url)
        : undefined,
  };
}

/** The bounds of the request's own transaction. */
function ownBounds(prepared: PreparedV3): ResourceBounds {
  return prepared.plan.bounds[prepared.plan.bounds.length - 1];
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

const ACTIONS: Record<SendRequest['kind'], string> = {
  invoke: 'Transaction',
  declare: 'Declaration',
  deploy: 'Account deployment',
};

/**
 * Under the account's lock: the deployment first when the account is still not deployed (checked
 * again there: another approved request may have deployed it since), saved as soon as the node
 * takes it; then the request's transaction with the caller's nonce or the next one.
 */
export async function sendV3(prepared: PreparedV3): Promise<SendOutcome> {
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
