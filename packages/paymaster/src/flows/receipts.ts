/**
 * After a submission: the account's turn is held until its transaction is in a block (so the
 * next execution of the account is simulated on what it left), and what it cost is settled:
 * gas spent counted, a sponsor's reservation replaced by the actual fee, a revert billed to the
 * account (default mode) or kept on the key's budget (sponsored); a success pays off the debt
 * its fee covered.
 */
import type { ReceiptJson } from '../node/client';
import { type Felt, toHex } from '../protocol/felt';
import type { FlowContext } from './context';

export interface Followed {
  hash: Felt;
  account: Felt;
  /** The account's debt (FRI) the fee of this transaction covered. */
  debt: bigint;
  reserved?: { keyId: string; day: number; fri: bigint };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForReceipt(ctx: FlowContext, hash: Felt): Promise<ReceiptJson | undefined> {
  const deadline = Date.now() + ctx.policy.receiptTimeoutMs;
  let wait = 20;
  while (Date.now() < deadline) {
    if (ctx.dropped.delete(hash)) return undefined;
    const receipt = await ctx.node.receipt(toHex(hash)).catch(() => undefined);
    if (receipt) return receipt;
    await sleep(wait);
    wait = Math.min(wait * 2, 1000);
  }
  return undefined;
}

/** Runs in the background; releases the account's turn once the transaction is in a block. */
export function followReceipt(ctx: FlowContext, followed: Followed, release: () => void): void {
  void (async () => {
    const receipt = await waitForReceipt(ctx, followed.hash).finally(release);
    if (!receipt) {
      // The reservation stays spent: the relayer may still pay for it.
      ctx.metrics.executions.add({ outcome: 'unconfirmed' });
      ctx.log(`no receipt for ${toHex(followed.hash)} within ${ctx.policy.receiptTimeoutMs} ms`);
      return;
    }
    const fee = BigInt(receipt.actual_fee.amount);
    ctx.metrics.gasSpent.add({}, fee);
    const { reserved } = followed;
    if (reserved) await ctx.state.adjustSponsor(reserved.keyId, reserved.day, fee - reserved.fri);
    if (receipt.execution_status === 'REVERTED') {
      ctx.metrics.executions.add({ outcome: 'reverted' });
      if (!reserved) await ctx.state.addDebt(followed.account, fee);
      ctx.log(
        `reverted ${toHex(followed.hash)}: ${fee} FRI ${reserved ? "on the sponsor key's budget" : `owed by ${toHex(followed.account)}`} (${(receipt.revert_reason ?? '').slice(0, 200)})`,
      );
    } else {
      ctx.metrics.executions.add({ outcome: 'succeeded' });
      if (followed.debt > 0n) await ctx.state.addDebt(followed.account, -followed.debt);
    }
  })().catch((error: unknown) => ctx.log(`receipt follow-up failed: ${String(error)}`));
}
