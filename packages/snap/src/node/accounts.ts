/**
 * Every on-chain read of accounts, one JSON-RPC batch per read however many accounts it covers:
 * whether each is deployed (its class hash), its nonce, and its balances of the tokens asked.
 * A send reads its account here before the dialog and again under the account's lock; the home
 * page and l2_recoverAccounts read many accounts at once (flows/accounts.ts).
 */
import { feltAnswer, u256Answer } from './answers';
import { StarknetRpcError, type BatchResult, type RpcCall, type RpcClient } from './client';
import {
  classHashAtCall,
  CONTRACT_NOT_FOUND,
  nonceCall,
  viewCall,
  type BlockTag,
  type ChainContext,
} from './chain';
import { toChainError } from './errors';

export type AccountQuery = {
  block: BlockTag;
  /** Also the nonce (0 for an account not deployed). */
  nonce?: boolean;
  /** The ERC-20 tokens whose balance_of is read. */
  tokens?: readonly string[];
};

/** One account's answers; each failed read is its node error, for the caller to weigh. */
export type AccountAnswers = {
  deployed: BatchResult<boolean>;
  nonce: BatchResult<bigint>;
  balances: BatchResult<bigint>[];
};

function callsOf(address: string, query: AccountQuery): RpcCall[] {
  return [
    classHashAtCall(address, query.block),
    ...(query.nonce ? [nonceCall(address, query.block)] : []),
    ...(query.tokens ?? []).map((token) => viewCall(token, 'balance_of', [address], query.block)),
  ];
}

function read<T>(answer: BatchResult, parse: (value: unknown) => T): BatchResult<T> {
  return answer.ok ? { ok: true, result: parse(answer.result) } : answer;
}

function answersOf(answers: BatchResult[], query: AccountQuery): AccountAnswers {
  const [classHash, ...rest] = answers;
  const nonce = query.nonce ? rest.shift() : undefined;
  const notFound = !classHash.ok && classHash.error.code === CONTRACT_NOT_FOUND;
  const deployed: BatchResult<boolean> = notFound
    ? { ok: true, result: false }
    : read(classHash, (value) => {
        feltAnswer(value, 'a class hash');
        return true;
      });
  return {
    deployed,
    // An account with no contract has nonce 0, whatever the node says of its nonce.
    nonce:
      nonce === undefined || notFound
        ? { ok: true, result: 0n }
        : read(nonce, (value) => BigInt(feltAnswer(value, 'a nonce'))),
    balances: rest.map((balance) => read(balance, (value) => u256Answer(value, 'a balance'))),
  };
}

/**
 * The answers for `addresses`, in one batch with `also` (whose answers come back as they are).
 */
export async function readAccounts(
  rpc: RpcClient,
  addresses: readonly string[],
  query: AccountQuery,
  also: readonly RpcCall[] = [],
): Promise<{ accounts: AccountAnswers[]; also: BatchResult[] }> {
  const perAccount = 1 + (query.nonce ? 1 : 0) + (query.tokens?.length ?? 0);
  const answers = await rpc.batch<unknown>([
    ...addresses.flatMap((address) => callsOf(address, query)),
    ...also,
  ]);
  const accounts = addresses.map((_address, index) =>
    answersOf(answers.slice(index * perAccount, (index + 1) * perAccount), query),
  );
  return { accounts, also: answers.slice(addresses.length * perAccount) };
}

/** A read's value, or its node error as the snap reports it. */
export function settled<T>(answer: BatchResult<T>, action: string): T {
  if (!answer.ok) {
    throw toChainError(answer.error, action);
  }
  return answer.result;
}

export type AccountSnapshot = {
  deployed: boolean;
  nonce: bigint;
  /** Balance of the token that pays the fee (STRK for a v3 transaction). */
  feeBalance: bigint;
};

/**
 * Deployed? nonce, balance of `feeToken` (pre_confirmed), and `also` in the same batch: what a
 * send reads before its dialog.
 */
export async function readAccountSnapshot(
  chain: ChainContext,
  address: string,
  feeToken: string,
  also: readonly RpcCall[] = [],
): Promise<[AccountSnapshot, BatchResult[]]> {
  const { accounts, also: alsoAnswers } = await readAccounts(
    chain.rpc,
    [address],
    { block: 'pre_confirmed', nonce: true, tokens: [feeToken] },
    also,
  );
  const [account] = accounts;
  const deployed = settled(account.deployed, 'Reading the account');
  const feeBalance = settled(account.balances[0], 'Reading the fee token balance');
  const nonce = settled(account.nonce, 'Reading the account nonce');
  return [{ deployed, nonce, feeBalance }, alsoAnswers];
}

export type AccountChainState = { deployed: boolean; nonce: bigint };

/** Whether the account is deployed, and its nonce: one round trip. */
export async function readAccountState(
  rpc: RpcClient,
  address: string,
): Promise<AccountChainState> {
  const {
    accounts: [account],
  } = await readAccounts(rpc, [address], { block: 'pre_confirmed', nonce: true });
  return {
    deployed: settled(account.deployed, 'Reading the account'),
    nonce: settled(account.nonce, 'Reading the account nonce'),
  };
}

/** The account's nonce alone (0 when it is not deployed): one call. */
export async function readNonce(rpc: RpcClient, address: string): Promise<bigint> {
  const call = nonceCall(address);
  try {
    return BigInt(feltAnswer(await rpc.request<unknown>(call.method, call.params), 'a nonce'));
  } catch (error) {
    if (error instanceof StarknetRpcError && error.code === CONTRACT_NOT_FOUND) {
      return 0n;
    }
    throw toChainError(error, 'Reading the account nonce');
  }
}
