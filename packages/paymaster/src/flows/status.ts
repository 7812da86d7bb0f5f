/**
 * What the paymaster says of itself and of a request: a tracking id's latest transaction and its
 * status, GET /health (the node answers, the relayer holds STRK above its floor, no submission
 * uncertain) and GET /metrics.
 */
import { STRK_TOKEN_ADDRESS } from '@l2wallet/starknet-protocol';

import { errors } from '../errors';
import { erc20Balance } from '../node/contracts';
import { type Felt, toHex } from '../protocol/felt';
import type { FlowContext } from './context';

const STRK = BigInt(STRK_TOKEN_ADDRESS);

export interface Health {
  status: 'ok' | 'relayer-unfunded' | 'relayer-below-floor' | 'node-unavailable';
  chain_id: string;
  relayer: {
    address: string;
    strk_balance?: string;
    /** The STRK balance (FRI) below which nothing is relayed. */
    floor: string;
    nonce?: string;
    uncertain_submission: boolean;
  };
}

export async function trackingStatus(
  ctx: FlowContext,
  id: Felt,
): Promise<{ transaction_hash: string; status: 'active' | 'accepted' | 'dropped' }> {
  const tracked = await ctx.tracking.get(id);
  if (!tracked) throw errors.invalidId(`no request of this paymaster has tracking id ${toHex(id)}`);
  const { relayer, node } = ctx;
  let status;
  try {
    status = await node.transactionStatus(toHex(tracked.hash));
  } catch (error) {
    throw errors.unknown(`the Starknet node is unavailable (${(error as Error).message})`);
  }
  const finality = status?.finality_status;
  const answer =
    finality === 'ACCEPTED_ON_L2' || finality === 'ACCEPTED_ON_L1'
      ? 'accepted'
      : finality === 'RECEIVED' || finality === 'CANDIDATE' || finality === 'PRE_CONFIRMED'
        ? 'active'
        : relayer.isUncertain(tracked.hash)
          ? 'active'
          : 'dropped';
  return { transaction_hash: toHex(tracked.hash), status: answer };
}

/** The node answers, the relayer has STRK, and whether a submission is still unconfirmed. */
export async function health(ctx: FlowContext): Promise<Health> {
  const { relayer, node, chainId } = ctx;
  const floor = ctx.policy.minRelayerBalanceFri;
  const base = {
    chain_id: toHex(chainId),
    relayer: {
      address: toHex(relayer.address),
      uncertain_submission: relayer.hasUncertain,
      floor: floor.toString(),
    },
  };
  try {
    const [balance, nonce] = await Promise.all([
      erc20Balance(node, STRK, relayer.address),
      node.nonce(toHex(relayer.address)),
    ]);
    return {
      ...base,
      status: balance === 0n ? 'relayer-unfunded' : balance < floor ? 'relayer-below-floor' : 'ok',
      relayer: { ...base.relayer, strk_balance: balance.toString(), nonce: toHex(nonce) },
    };
  } catch {
    return { ...base, status: 'node-unavailable' };
  }
}

/** GET /metrics: the counters, and the relayer's balance of each token read now. */
export async function metricsText(ctx: FlowContext): Promise<string> {
  const { node, relayer, tokens, metrics, policy } = ctx;
  const balances = await Promise.all(
    [...tokens.values()].map(async (token) => ({
      token: toHex(token.address),
      amount: await erc20Balance(node, token.address, relayer.address).catch(() => -1n),
    })),
  );
  const strk = balances.find((b) => BigInt(b.token) === STRK)?.amount ?? 0n;
  return metrics.render(
    balances.filter((b) => b.amount >= 0n),
    strk < policy.minRelayerBalanceFri,
  );
}
