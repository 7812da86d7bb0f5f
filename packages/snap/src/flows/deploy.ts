/**
 * l2_createAccount with `deploy: true`: the account's deployment through the one send path, after
 * the user saw the address and the fee. Nothing is stored before the user approves and the node
 * takes the deployment; an account already on chain is recorded, with nothing sent.
 */
import { STRK_TOKEN_ADDRESS } from '@l2wallet/starknet-protocol';

import { userRejected } from '../errors';
import { deriveAccountKey, type AccountKey } from '../keys';
import { readAccountSnapshot } from '../node/accounts';
import { getChain } from '../node/chain';
import { findDeployTxnHash } from '../node/explorer';
import { stateStore } from '../state';
import { confirm, DeployAccountScreen } from '../ui';
import type { FeeMode } from '../starknet/paymaster';
import { rawCall } from '../ui';
import { knownDeployHash, saveDeployment } from './accounts';
import { prepareSend, requireFunds, send } from './send';
import { relayedFee } from './sendRelayed';

export type DeployResult = { address: string; transaction_hash: string };

/**
 * An account on chain already (deployed elsewhere, or by this snap meanwhile): recorded, with
 * its deployment's hash from state, this snap's submission or the explorer when it knows it.
 */
async function recordDeployed(
  key: AccountKey,
  chainId: string,
  localHash?: string,
): Promise<DeployResult> {
  const known = knownDeployHash(await stateStore.read(), chainId, key.address) || localHash;
  const found = known || (await findDeployTxnHash(getChain(chainId).explorer, key.address));
  const record = await saveDeployment(key, chainId, found, false);
  return { address: key.address, transaction_hash: record.deployTxnHash };
}

/**
 * The site at `origin` was granted `index` already (methods/createAccount.ts). With `feeMode` the
 * deployment is relayed by the network's paymaster, its fee paid in the gas token.
 */
export async function deployAccount(
  index: number,
  chainId: string,
  origin: string,
  feeMode?: FeeMode,
): Promise<DeployResult> {
  const key = await deriveAccountKey(index);
  const chain = getChain(chainId);
  const [snapshot] = await readAccountSnapshot(
    chain,
    key.address,
    feeMode?.gasToken ?? STRK_TOKEN_ADDRESS,
  );
  if (snapshot.deployed) {
    return recordDeployed(key, chainId);
  }
  const prepared = await prepareSend(
    chain,
    key,
    { kind: 'deploy' },
    feeMode ? { feeMode, blockIdentifier: undefined } : undefined,
    { snapshot, preview: true },
  );
  requireFunds(prepared, 'the account deployment');
  const approved = await confirm(
    origin,
    DeployAccountScreen({
      address: key.address,
      network: chain.network,
      preview: prepared.preview,
      ...(prepared.route === 'paymaster'
        ? { fee: { relayed: relayedFee(prepared) }, calls: prepared.calls.map(rawCall) }
        : { fee: { maxCharge: prepared.plan.maxCharge, estimatedFee: prepared.plan.overallFee } }),
    }),
  );
  if (!approved) {
    throw userRejected();
  }
  const outcome = await send(prepared);
  if (outcome.alreadyDeployed || !outcome.transactionHash) {
    return recordDeployed(key, chainId, outcome.alreadyDeployed?.localHash);
  }
  return { address: key.address, transaction_hash: outcome.transactionHash };
}
