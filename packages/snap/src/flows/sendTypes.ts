/**
 * The types both send routes share (sendV3.ts, sendRelayed.ts) and send.ts returns: their own
 * module, so the routes need not import send.ts, which imports them.
 */
import type { AccountKey } from '../keys';
import type { AccountSnapshot } from '../node/accounts';
import type { ChainContext } from '../node/chain';
import type { BatchResult, RpcCall } from '../node/client';
import type { SimulationAnswer } from '../node/simulate';
import type { TxDetails } from '../starknet/details';
import type { DeclarePayload, TxCall } from '../starknet/transaction';

/** What is sent: the request's own transaction. */
export type SendRequest =
  | { kind: 'invoke'; calls: readonly TxCall[] }
  | { kind: 'declare'; declare: DeclarePayload }
  /** The account's deployment alone. */
  | { kind: 'deploy' };

/** What prepareSend read before choosing a route; each route's prepared send extends it. */
export type PreparedCommon = {
  chain: ChainContext;
  key: AccountKey;
  request: SendRequest;
  details: TxDetails | undefined;
  snapshot: AccountSnapshot;
  /** The account's deployment is sent first (or is the request). */
  includeDeploy: boolean;
};

export type SendOutcome = {
  /** The request's own transaction; for a deployment alone, the deployment when it was sent. */
  transactionHash?: string;
  /** The deployment this send made. */
  deployTxnHash?: string;
  /** A deployment alone found the account deployed already (by this snap: its hash). */
  alreadyDeployed?: { localHash?: string | undefined };
};

/**
 * A preview simulation that rides in the account batch (send.ts) on a guess of what the batch
 * finds (deployed? nonce): `use` reads its answer only when the snapshot confirms the guess, so
 * that it simulated the very transactions the route would simulate; else undefined (dropped
 * unread, and the route simulates after the batch).
 */
export type RidingSimulation = {
  call: RpcCall;
  use: (answer: BatchResult, snapshot: AccountSnapshot) => SimulationAnswer | undefined;
};
