import type { ChainConfig } from './genesis';
import {
  InvalidParamError,
  parseTransaction,
  Transaction,
  transactionToJson,
} from './transactions';
import { StarknetRpcError } from './errors';
import { MessageToL2, messageToJson, parseMessageToL2 } from './messaging';

// devnet_dump / devnet_load: a chain is its options plus every state-changing action, replayed in
// order on load (same blocks, same hashes). Only the shape lives here; files are the server's.

/** What a dump holds: the options and every state-changing action, replayed on load. */
export interface DevnetDump {
  version: 1;
  options: {
    seed: number;
    accounts: number;
    chainId: string;
    initialBalance: string;
    blockPerTransaction: boolean;
    /** Absent in older dumps: the default version. */
    starknetVersion?: string;
  };
  genesisTimestamp: number;
  actions: DumpAction[];
}

type DumpAction =
  | { kind: 'tx'; tx: Record<string, unknown> }
  | { kind: 'block'; timestamp: number }
  | { kind: 'message'; message: Record<string, unknown> }
  | { kind: 'acceptOnL1'; blockNumber: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;

/** Checks a dump's shape; an InvalidParamError names the dump field (`version`, `options.seed`). */
export function checkDump(dump: unknown): asserts dump is DevnetDump {
  const bad = (field: string, detail: string) => new InvalidParamError(field, detail);
  if (!isRecord(dump)) throw bad('version', 'expected an object with version 1');
  if (dump.version !== 1)
    throw bad('version', `expected 1, found ${JSON.stringify(dump.version) ?? 'none'}`);
  const options = dump.options;
  if (!isRecord(options)) throw bad('options', 'expected an object');
  if (!isCount(options.seed)) throw bad('options.seed', 'expected a non-negative integer');
  if (!isCount(options.accounts)) throw bad('options.accounts', 'expected a non-negative integer');
  if (typeof options.chainId !== 'string' || options.chainId === '')
    throw bad('options.chainId', 'expected a chain id string');
  if (typeof options.initialBalance !== 'string' || !/^\d+$/.test(options.initialBalance))
    throw bad('options.initialBalance', 'expected a decimal integer string');
  if (
    options.starknetVersion !== undefined &&
    (typeof options.starknetVersion !== 'string' ||
      !/^\d+\.\d+\.\d+$/.test(options.starknetVersion))
  )
    throw bad('options.starknetVersion', 'expected a version such as 0.14.1');
  if (typeof options.blockPerTransaction !== 'boolean')
    throw bad('options.blockPerTransaction', 'expected a boolean');
  if (!isCount(dump.genesisTimestamp))
    throw bad('genesisTimestamp', 'expected a non-negative integer (seconds)');
  if (!Array.isArray(dump.actions)) throw bad('actions', 'expected an array');
  dump.actions.forEach((action: unknown, i) => {
    if (!isRecord(action)) throw bad(`actions[${i}]`, 'expected an object');
    if (action.kind === 'block') {
      if (!isCount(action.timestamp))
        throw bad(`actions[${i}].timestamp`, 'expected a non-negative integer');
    } else if (action.kind === 'tx') {
      if (!isRecord(action.tx)) throw bad(`actions[${i}].tx`, 'expected a transaction object');
    } else if (action.kind === 'message') {
      parseMessageToL2(action.message, `actions[${i}].message`);
    } else if (action.kind === 'acceptOnL1') {
      if (!isCount(action.blockNumber))
        throw bad(`actions[${i}].blockNumber`, 'expected a non-negative integer');
    } else throw bad(`actions[${i}].kind`, 'expected "tx", "block", "message" or "acceptOnL1"');
  });
}

/** The actions as they happened; transactions are turned into JSON only when dumping. */
export class ActionLog {
  private readonly actions: ({ kind: 'tx'; parsed: Transaction } | DumpAction)[] = [];

  transaction(tx: Transaction): void {
    this.actions.push({ kind: 'tx', parsed: tx });
  }

  block(timestamp: number): void {
    this.actions.push({ kind: 'block', timestamp });
  }

  message(message: MessageToL2): void {
    this.actions.push({ kind: 'message', message: messageToJson(message) });
  }

  acceptOnL1(blockNumber: number): void {
    this.actions.push({ kind: 'acceptOnL1', blockNumber });
  }

  /**
   * Keeps the actions that made blocks 1 to `blocks - 1` (genesis is not logged): after
   * devnet_abortBlocks, a dump is the chain that never had the aborted blocks.
   */
  truncateToBlocks(blocks: number): void {
    let closed = 0;
    let keep = 0;
    while (keep < this.actions.length && closed < blocks - 1) {
      if (this.actions[keep].kind === 'block') closed += 1;
      keep += 1;
    }
    this.actions.length = keep;
  }

  /**
   * The dump of a chain made from `config` at `genesisTimestamp`. Transactions still waiting
   * (RECEIVED) come last, as the pre-confirmed block's next ones: a load replays them, so they
   * are PRE_CONFIRMED in the loaded chain.
   */
  dump(config: ChainConfig, genesisTimestamp: number, waiting: readonly Transaction[]): DevnetDump {
    return {
      version: 1,
      options: {
        seed: config.seed,
        accounts: config.accounts,
        chainId: config.chainId,
        initialBalance: config.initialBalance.toString(),
        blockPerTransaction: config.blockPerTransaction,
        starknetVersion: config.starknetVersion,
      },
      genesisTimestamp,
      actions: [
        ...this.actions.map((action) =>
          'parsed' in action
            ? { kind: 'tx' as const, tx: transactionToJson(action.parsed, true) }
            : action,
        ),
        ...waiting.map((tx) => ({ kind: 'tx' as const, tx: transactionToJson(tx, true) })),
      ],
    };
  }
}

/** What replaying a dump drives: a fresh chain made from the dump's options. */
export interface ReplayTarget {
  closeBlock(timestamp: number): unknown;
  addTransaction(tx: Transaction): unknown;
  sendMessageToL2(message: MessageToL2): unknown;
  acceptOnL1(blockNumber: number): unknown;
}

/**
 * Replays a checked dump's actions. A transaction that does not parse or does not replay is an
 * InvalidParamError naming it (`actions[3].tx`, `actions[3].tx.nonce`...).
 */
export function replay(dump: DevnetDump, target: ReplayTarget): void {
  dump.actions.forEach((action, i) => {
    if (action.kind === 'block') {
      target.closeBlock(action.timestamp);
      return;
    }
    const path = action.kind === 'tx' ? `actions[${i}].tx` : `actions[${i}]`;
    try {
      if (action.kind === 'tx') target.addTransaction(parseTransaction(action.tx, path));
      else if (action.kind === 'message')
        target.sendMessageToL2(parseMessageToL2(action.message, `${path}.message`));
      else target.acceptOnL1(action.blockNumber);
    } catch (error) {
      if (!(error instanceof StarknetRpcError)) throw error;
      throw new InvalidParamError(path, `does not replay: ${error.message}`);
    }
  });
}
