/**
 * Client of the explorer's per-address transaction list: `GET <base>/api/txns?to=&ps=&p=`
 * (served by packages/devnet locally). Items come newest first.
 */
import { DEFAULT_RPC_TIMEOUT_MS, describeEndpoint, nodeUnavailable } from './rpc';

export const EXPLORER_TIMEOUT_MS = DEFAULT_RPC_TIMEOUT_MS;

/** One explorer item, in the fields the snap's transaction record needs. */
export type ExplorerTransaction = {
  hash: string;
  type: string;
  sender: string;
  contract: string;
  entryPoint: string;
  calldata: string[];
  status: string;
  /** SUCCEEDED or REVERTED when the explorer says. */
  executionStatus: string;
  failureReason: string | null;
  /** Unix seconds. */
  timestamp: number;
};

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
        throw nodeUnavailable(this.baseUrl, `the explorer answered HTTP ${response.status}`);
      }
      body = await response.json();
    } catch (error) {
      if (error instanceof Error && error.name !== 'AbortError' && 'code' in error) {
        throw error;
      }
      throw nodeUnavailable(
        this.baseUrl,
        controller.signal.aborted
          ? `the explorer did not answer within ${this.#timeoutMs / 1000} s`
          : `the explorer (${describeEndpoint(this.baseUrl)}) could not be reached`,
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
