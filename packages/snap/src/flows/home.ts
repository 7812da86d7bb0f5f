/**
 * What the home page shows (ui/HomeScreen.tsx draws it): the accounts of the current network with
 * their STRK and ETH balances and deploy state (one JSON-RPC batch, accounts.ts), their last five
 * transactions from the same history code as l2_getTransactions, and the sites the user allowed
 * (revocable).
 *
 * The accounts are listed whatever the node does (refused, reset, hung, 5xx, malformed): the node
 * reads are settled separately, bounded by HOME_NODE_DEADLINE_MS, and a failure becomes a note.
 * Only the first HOME_MAX_SCANNED accounts are read from the node.
 */
import { readHistory } from '../history/history';
import { getChain } from '../node/chain';
import { getNetwork, type Network } from '../starknet/networks';
import { stateStore, tokensAddedBy, type SnapState, type TransactionRecord } from '../state';
import type { AccountOverview, HomeOverview, SiteOverview } from '../ui';
import { networkAccounts, readAccountsOnChain } from './accounts';

export const HOME_TRANSACTIONS = 5;
/** The node is read for this many accounts at most (the others are listed without balances). */
export const HOME_MAX_SCANNED = 20;
/** The page waits this long for the node at most, then shows what it has. */
export const HOME_NODE_DEADLINE_MS = 8_000;
/** The home page looks back this far for the last transactions. */
export const HOME_HISTORY_DAYS = 30;

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : 'the node could not be read';
}

/** `work`, or a rejection once `ms` have passed (the work goes on, its answer unused). */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the node did not answer within ${ms / 1000} s`)),
      ms,
    );
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function readBalances(network: Network, accounts: AccountOverview[]): Promise<void> {
  const read = await readAccountsOnChain(
    getChain(network.chainId),
    accounts.map((account) => account.address),
  );
  accounts.forEach((account, index) => Object.assign(account, read[index]));
}

async function readLastTransactions(
  network: Network,
  accounts: AccountOverview[],
): Promise<TransactionRecord[]> {
  const since = Math.floor(Date.now() / 1000) - HOME_HISTORY_DAYS * 86_400;
  const lists = await Promise.all(
    accounts.map(async (account) =>
      readHistory({
        chainId: network.chainId,
        address: account.address,
        since,
        pageSize: 50,
        withDeployTxn: true,
        onlyFromState: false,
        fromState: true,
      }),
    ),
  );
  const byHash = new Map(lists.flat().map((record) => [record.txnHash, record]));
  return [...byHash.values()].sort((a, b) => b.timestamp - a.timestamp).slice(0, HOME_TRANSACTIONS);
}

export async function readHomeOverview(): Promise<HomeOverview> {
  const state = await stateStore.read();
  const network = getNetwork(state.currentChainId);
  const accounts: AccountOverview[] = networkAccounts(state, network.chainId).map((record) => ({
    address: record.address,
    addressIndex: record.addressIndex,
  }));
  const sites = siteOverviews(state);
  const notes: string[] = [];
  if (accounts.length === 0) {
    return { network, accounts, transactions: [], notes, sites };
  }
  const scanned = accounts.slice(0, HOME_MAX_SCANNED);
  if (accounts.length > scanned.length) {
    notes.push(`Balances and transactions are read for the first ${scanned.length} accounts only.`);
  }
  // Each read is settled on its own: whatever the node does, the accounts are listed.
  const [balances, history] = await Promise.allSettled([
    withDeadline(readBalances(network, scanned), HOME_NODE_DEADLINE_MS),
    withDeadline(readLastTransactions(network, scanned), HOME_NODE_DEADLINE_MS),
  ]);
  if (balances.status === 'rejected') {
    for (const account of scanned) {
      // A batch that failed half-way leaves nothing half-read on the page.
      delete account.strk;
      delete account.eth;
      delete account.deployed;
    }
    notes.push(`The balances could not be read: ${reasonOf(balances.reason)}`);
  }
  if (history.status === 'rejected') {
    notes.push(`The transactions could not be read: ${reasonOf(history.reason)}`);
  }
  return {
    network,
    accounts,
    transactions: history.status === 'fulfilled' ? history.value : [],
    notes,
    sites,
  };
}

function siteOverviews(state: SnapState): SiteOverview[] {
  const granted = Object.values(state.grants).sort((a, b) => a.grantedAt - b.grantedAt);
  const adders = Object.values(state.erc20Tokens)
    .flat()
    .flatMap((token) => token.addedBy ?? []);
  const origins = [...new Set([...granted.map((grant) => grant.origin), ...adders])];
  return origins.map((origin) => ({
    origin,
    ...(state.grants[origin] ? { grant: state.grants[origin] } : {}),
    tokens: tokensAddedBy(state, origin).map((token) => ({
      symbol: token.symbol,
      address: token.address,
      network: getNetwork(token.chainId).name,
    })),
  }));
}
