/**
 * Client of the explorer's per-address transaction list: `GET <base>/api/txns?to=&ps=&p=`
 * (served by packages/devnet locally). Items come newest first.
 */
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

import type { ExplorerTransaction } from '../starknet/records';
import { DEFAULT_RPC_TIMEOUT_MS, describeEndpoint } from './client';

export type { ExplorerTransaction };

export const EXPLORER_TIMEOUT_MS = DEFAULT_RPC_TIMEOUT_MS;

export type ExplorerPage = { items: ExplorerTransaction[]; hasMore: boolean };

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function pick(item: Record<string, unknown>, ...keys: string[]): unknown {
  for (const key of keys) {
    if (item[key] !== undefined && item[key] !== null) {
      return item[key];
    }
  }
  return undefined;
}

export function parseExplorerItem(raw: unknown): ExplorerTransaction | undefined {
  if (typeof raw !== 'object' || raw === null) {
    return undefined;
  }
  const item = raw as Record<string, unknown>;
  const hash = text(pick(item, 'hash', 'transaction_hash', 'txnHash'));
  if (!hash) {
    return undefined;
  }
  const calls = Array.isArray(item.calls)
    ? (item.calls as Record<string, unknown>[]).filter(
        (call) => typeof call === 'object' && call !== null,
      )
    : [];
  const type = text(pick(item, 'type', 'txnType'));
  // For an invoke the record shows the first call (as the snap's own records do), not the raw
  // __execute__ calldata.
  const firstCall = type.toUpperCase() === 'INVOKE' ? calls[0] : undefined;
  const calldata = firstCall ? firstCall.calldata : pick(item, 'calldata', 'contractCallData');
  const entryPoint =
    firstCall && calls.length > 0
      ? calls.map((call) => text(pick(call, 'entrypoint', 'entry_point'))).join(',')
      : text(pick(item, 'entrypoint', 'entryPoint', 'entry_point', 'contractFuncName'));
  const failure = pick(item, 'failureReason', 'failure_reason', 'revert_reason', 'revertReason');
  const timestamp = Number(pick(item, 'timestamp') ?? 0);
  return {
    hash,
    type,
    sender: text(pick(item, 'sender', 'sender_address', 'senderAddress')),
    contract: text(pick(item, 'contract', 'contract_address', 'contractAddress')),
    entryPoint,
    calldata: Array.isArray(calldata) ? calldata.map(text) : [],
    status: text(pick(item, 'status', 'finality_status')),
    executionStatus: text(pick(item, 'executionStatus', 'execution_status')),
    failureReason: typeof failure === 'string' && failure.length > 0 ? failure : null,
    timestamp: Number.isFinite(timestamp) ? Math.floor(timestamp) : 0,
  };
}

/**
 * The explorer could not be reached or refused the request: -32002 naming only its host (the
 * URL may carry an API key). Retryable unless the explorer answered a 4xx other than 429.
 */
export function explorerUnavailable(
  url: string,
  reason: string,
  { retryable = true, timedOut = false }: { retryable?: boolean; timedOut?: boolean } = {},
): Error {
  const advice = retryable
    ? 'try again when the explorer is reachable'
    : "check the explorer's configuration before trying again";
  return new ResourceUnavailableError(
    `The Starknet explorer (${describeEndpoint(url)}) is unavailable: ${reason}. Nothing was changed in the snap; ${advice}.`,
    { retryable, reason, timedOut },
  );
}

export class ExplorerClient {
  readonly baseUrl: string;

  readonly #timeoutMs: number;

  constructor(baseUrl: string, timeoutMs = EXPLORER_TIMEOUT_MS) {
    this.baseUrl = baseUrl.replace(/\/+$/u, '');
    this.#timeoutMs = timeoutMs;
  }

  /** One page of the transactions that touch `address`, newest first. */
  async listTransactions(address: string, pageSize: number, page = 1): Promise<ExplorerPage> {
    const url = `${this.baseUrl}/api/txns?to=${encodeURIComponent(address)}&ps=${pageSize}&p=${page}`;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#timeoutMs);
    let body: unknown;
    try {
      const response = await fetch(url, { signal: controller.signal });
      if (!response.ok) {
        const { status } = response;
        throw explorerUnavailable(this.baseUrl, `it answered HTTP ${status}`, {
          retryable: status === 429 || status >= 500,
        });
      }
      body = await response.json();
    } catch (error) {
      if (error instanceof Error && error.name !== 'AbortError' && 'code' in error) {
        throw error;
      }
      throw explorerUnavailable(
        this.baseUrl,
        controller.signal.aborted
          ? `no answer within ${this.#timeoutMs / 1000} s`
          : 'it could not be reached',
        { timedOut: controller.signal.aborted },
      );
    } finally {
      clearTimeout(timer);
    }
    const record = (body ?? {}) as Record<string, unknown>;
    const rawItems = Array.isArray(body)
      ? body
      : ((pick(record, 'items', 'transactions', 'txns', 'data') as unknown[] | undefined) ?? []);
    const items = (Array.isArray(rawItems) ? rawItems : [])
      .map(parseExplorerItem)
      .filter((item): item is ExplorerTransaction => item !== undefined);
    const lastPage = Number(pick(record, 'totalPages', 'lastPage', 'last_page', 'pages') ?? 0);
    const hasMore = lastPage > 0 ? page < lastPage : items.length === pageSize;
    return { items, hasMore };
  }
}

/**
 * Reads explorer pages (newest first) until one reaches an item older than `since`, the last
 * page, or `maxPages`; `visit` gets every item not older than `since`, and every item without a
 * timestamp (0): an unknown time is no reason to stop paging. Returns the pages read.
 */
export async function readExplorerPages(
  listPage: (page: number) => Promise<ExplorerPage>,
  since: number,
  maxPages: number,
  visit: (item: ExplorerTransaction) => void,
): Promise<number> {
  let page = 1;
  for (; page <= maxPages; page += 1) {
    const result = await listPage(page);
    let reachedOlder = false;
    for (const item of result.items) {
      if (item.timestamp !== 0 && item.timestamp < since) {
        reachedOlder = true;
        continue;
      }
      visit(item);
    }
    if (reachedOlder || !result.hasMore) {
      return page;
    }
  }
  return page - 1;
}

/** Explorer pages read at most when looking up an account's deployment. */
export const MAX_DEPLOY_LOOKUP_PAGES = 10;

/**
 * An account's deployment transaction, looked up in the explorer, best effort: '' when no
 * explorer is configured, or it does not know the deployment or cannot be reached. The list is
 * newest first, so the deploy is on the last page: pages of 50 are read until it shows up or the
 * list ends.
 */
export async function findDeployTxnHash(
  explorer: ExplorerClient | undefined,
  address: string,
): Promise<string> {
  if (!explorer) {
    return '';
  }
  try {
    return await lookUp(explorer, address);
  } catch {
    return '';
  }
}

async function lookUp(explorer: ExplorerClient, address: string): Promise<string> {
  const target = BigInt(address);
  const isTarget = (value: string): boolean => value !== '' && BigInt(value) === target;
  for (let page = 1; page <= MAX_DEPLOY_LOOKUP_PAGES; page += 1) {
    const result = await explorer.listTransactions(address, 50, page);
    const deploy = result.items.find(
      (item) =>
        item.type.toUpperCase() === 'DEPLOY_ACCOUNT' &&
        (isTarget(item.contract) || isTarget(item.sender)),
    );
    if (deploy) {
      return `0x${BigInt(deploy.hash).toString(16)}`;
    }
    if (!result.hasMore) {
      return '';
    }
  }
  return '';
}
