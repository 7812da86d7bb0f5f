import { Chain } from './chain';
import { rpcErrors, StarknetRpcError } from './errors';
import { Felt } from './felt';
import { TransactionRunner } from './runner';
import { mergeDiff, StateOverlay } from './state';
import { Transaction, transactionHash, TX_VERSION_3 } from './transactions';

/**
 * Block-time mode's mempool: submissions the gateway's checks admitted but not yet executed
 * (finality status RECEIVED), in submission order, and the pre-confirmed state with their
 * effects, against which later submissions are admitted.
 */
export class Mempool {
  private readonly queue: { hash: Felt; tx: Transaction }[] = [];
  private readonly byHash = new Map<Felt, Transaction>();
  private state?: StateOverlay;

  constructor(
    private readonly chain: Chain,
    private readonly runner: TransactionRunner,
  ) {}

  /** A submitted transaction still waiting to be executed. */
  get(hash: Felt): Transaction | undefined {
    return this.byHash.get(hash);
  }

  get count(): number {
    return this.queue.length;
  }

  /** The waiting transactions, in order, left in place. */
  transactions(): Transaction[] {
    return this.queue.map(({ tx }) => tx);
  }

  /**
   * The gateway's checks, run now and synchronously (version, duplicate, deployed sender,
   * account, nonce against the pre-confirmed state plus the queued transactions, resource
   * prices, fee balance, __validate__); then the transaction waits in the queue.
   */
  admit(tx: Transaction): Felt {
    if (tx.version !== TX_VERSION_3) throw rpcErrors.unsupportedTxVersion();
    const hash = transactionHash(tx, this.chain.chainId);
    if (this.chain.hasTransaction(hash) || this.byHash.has(hash)) throw rpcErrors.duplicateTx();
    if (tx.type === 'DECLARE') {
      for (const queued of this.byHash.values()) {
        if (queued.type === 'DECLARE' && queued.classHash === tx.classHash)
          throw rpcErrors.classAlreadyDeclared();
      }
    }
    // The overlay holds the effects of the queued transactions only: with none queued it is
    // rebuilt on the current pre-confirmed state, which a mint, a block close or a refused
    // submission (it created the overlay but queued nothing) may have left behind.
    if (this.queue.length === 0 || !this.state)
      this.state = new StateOverlay(this.chain.pendingState());
    const state = this.state;
    const result = this.runner.run(
      tx,
      hash,
      state,
      this.chain.blockInfo(this.chain.pending),
      { skipValidate: false, skipFeeCharge: false, strictNonce: true },
      false,
    );
    mergeDiff(state.diff, result.stateDiff);
    this.queue.push({ hash, tx });
    this.byHash.set(hash, tx);
    return hash;
  }

  /**
   * Drops every waiting transaction (devnet_abortBlocks: the state they were admitted on is gone).
   */
  clear(): void {
    this.queue.length = 0;
    this.byHash.clear();
    this.state = undefined;
  }

  /**
   * Empties the queue through `execute`, in submission order. One that the chain now refuses (it
   * cannot happen with the checks at submission unless queued transactions conflict) is dropped,
   * as a sequencer drops it: its hash is then unknown. Returns how many were executed.
   */
  flush(execute: (tx: Transaction) => void): number {
    this.state = undefined;
    if (this.queue.length === 0) return 0;
    const queued = this.queue.splice(0);
    this.byHash.clear();
    let executed = 0;
    for (const { tx } of queued) {
      try {
        execute(tx);
        executed += 1;
      } catch (error) {
        if (!(error instanceof StarknetRpcError)) throw error;
      }
    }
    return executed;
  }
}
