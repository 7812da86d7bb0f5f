/**
 * The checks building and executing share: the fee mode against the caller and the token list,
 * a deployment against the chain, time bounds against the policy and the chain's clock.
 */
import { errors } from '../errors';
import { counterfactualAddress, type Deployment } from '../protocol/calls';
import { type Felt, toHex } from '../protocol/felt';
import type { GasToken } from '../protocol/fees';
import type { Snip9Version } from '../protocol/outsideExecution';
import type { FeeMode, TimeBounds } from '../protocol/params';
import type { Caller, FlowContext } from './context';

/** The gas token of a `default` request (151 when not listed), or undefined when sponsored. */
export function checkFeeMode(
  ctx: FlowContext,
  feeMode: FeeMode,
  caller: Caller,
): GasToken | undefined {
  if (feeMode.mode === 'sponsored') {
    if (!caller.sponsorKey) {
      throw errors.unknown(
        'sponsored mode needs a valid x-paymaster-api-key header; without one, pay the fee in a gas token (fee_mode "default")',
      );
    }
    return undefined;
  }
  const token = ctx.tokens.get(feeMode.gasToken);
  if (!token) {
    throw errors.tokenNotSupported(
      `${toHex(feeMode.gasToken)} is not a gas token here; paymaster_getSupportedTokens lists them`,
    );
  }
  return token;
}

/**
 * The relayer's tip for a request: a custom tip as asked, the named ones 0 (no tip market here).
 * A tip is paid per L2 gas unit on top of the price, by the relayer: one above the operator's cap
 * (`--max-tip`) is refused, so a sponsored request cannot burn the relayer's STRK through it.
 */
export function tipOf(ctx: FlowContext, feeMode: FeeMode): bigint {
  const tip = typeof feeMode.tip === 'object' ? feeMode.tip.custom : 0n;
  if (tip > ctx.policy.maxTip) {
    throw errors
      .invalidParams(
        'parameters.fee_mode.tip.custom',
        `is above this paymaster's cap of ${ctx.policy.maxTip} FRI per L2 gas unit`,
      )
      .because('tip-cap');
  }
  return tip;
}

interface CheckedDeployment {
  deployment: Deployment;
  /** Already deployed with this class: nothing to deploy. */
  deployed: boolean;
  version: Snip9Version | undefined;
}

/**
 * A deployment must name the address its class, salt and calldata give (deployer 0, as a
 * deploy-account transaction); already deployed there with the same class, there is nothing to do.
 */
async function checkDeployment(
  ctx: FlowContext,
  deployment: Deployment,
  needsSnip9: boolean,
): Promise<CheckedDeployment> {
  const expected = counterfactualAddress(deployment);
  if (expected !== deployment.address) {
    throw errors.invalidDeploymentData(
      `deployment.address ${toHex(deployment.address)} is not where this class, salt and calldata deploy (${toHex(expected)})`,
    );
  }
  const [deployedClass, version] = await Promise.all([
    ctx.accounts.classHashAt(deployment.address),
    needsSnip9 ? ctx.accounts.versionOfClass(deployment.classHash) : undefined,
  ]);
  if (deployedClass !== undefined && deployedClass !== deployment.classHash) {
    throw errors.invalidDeploymentData(
      `a contract of another class (${toHex(deployedClass)}) is deployed at ${toHex(deployment.address)}`,
    );
  }
  if (!needsSnip9 && deployedClass === undefined) {
    // A deploy alone: the class must at least be declared.
    const selectors = await ctx.node.classEntryPoints(toHex(deployment.classHash));
    if (!selectors) {
      throw errors.invalidClassHash(
        `the class ${toHex(deployment.classHash)} is not declared on this network`,
      );
    }
  }
  return { deployment, deployed: deployedClass !== undefined, version };
}

/** A deploy alone: sponsored only (it carries no fee transfer), of an account not deployed yet. */
export async function checkDeployAlone(
  ctx: FlowContext,
  deployment: Deployment,
  token: GasToken | undefined,
): Promise<void> {
  if (token) {
    throw errors.unknown(
      'a deploy alone carries no fee transfer, so it can only be sponsored; to pay in a gas token, send deploy_and_invoke with at least one call',
    );
  }
  const checked = await checkDeployment(ctx, deployment, false);
  if (checked.deployed) {
    throw errors.invalidDeploymentData(
      `an account is already deployed at ${toHex(deployment.address)}`,
    );
  }
}

/**
 * The SNIP-9 version the invoking account `user` signs, and for deploy_and_invoke of an account
 * not deployed yet, the deployment the relayer runs first.
 */
export async function invokingAccount(
  ctx: FlowContext,
  tx: { type: 'invoke' } | { type: 'deploy_and_invoke'; deployment: Deployment },
  user: Felt,
): Promise<{ version: Snip9Version; deploy?: Deployment }> {
  if (tx.type === 'invoke') return { version: await deployedAccountVersion(ctx, user) };
  if (tx.deployment.address !== user) {
    throw errors.invalidDeploymentData(
      `deployment.address ${toHex(tx.deployment.address)} is not invoke.user_address ${toHex(user)}`,
    );
  }
  // Deployed or not, the class decides the version (versions are kept per class hash): the
  // account's class hash, read once, is the deployment's.
  const checked = await checkDeployment(ctx, tx.deployment, true);
  return { version: checked.version!, ...(!checked.deployed && { deploy: tx.deployment }) };
}

/** The SNIP-9 version of the deployed account `user` (150 when nothing is deployed there). */
async function deployedAccountVersion(ctx: FlowContext, user: Felt): Promise<Snip9Version> {
  const classHash = await ctx.accounts.classHashAt(user);
  if (classHash === undefined) {
    throw errors.invalidAddress(
      `no account is deployed at ${toHex(user)}; send deploy_and_invoke with its deployment data`,
    );
  }
  return ctx.accounts.versionOfDeployed(user, classHash);
}

/**
 * Bounds a client asks for, or signs: open now (execute_after before the chain's time, as the
 * account checks it), open long enough to be included, and not further ahead than the policy.
 */
export function checkTimeBounds(
  ctx: FlowContext,
  bounds: TimeBounds,
  now: number,
  what: string,
): void {
  const { executeAfter, executeBefore } = bounds;
  const { maxValiditySeconds, minValiditySeconds } = ctx.policy;
  if (executeAfter >= executeBefore) {
    throw errors.invalidTimeBounds(
      `${what}: execute_after (${executeAfter}) is not before execute_before (${executeBefore})`,
    );
  }
  if (executeAfter >= BigInt(now)) {
    throw errors.invalidTimeBounds(
      `${what}: execute_after (${executeAfter}) is not before the chain's time (${now}); this paymaster submits at once`,
    );
  }
  if (executeBefore < BigInt(now + minValiditySeconds)) {
    throw errors.invalidTimeBounds(
      `${what}: execute_before (${executeBefore}) leaves less than ${minValiditySeconds} s from the chain's time (${now})`,
    );
  }
  if (executeBefore > BigInt(now + maxValiditySeconds)) {
    throw errors.invalidTimeBounds(
      `${what}: execute_before (${executeBefore}) is more than ${maxValiditySeconds} s after the chain's time (${now})`,
    );
  }
}
