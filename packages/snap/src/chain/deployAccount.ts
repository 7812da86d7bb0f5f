/**
 * l2_createAccount with `deploy: true`: estimate, check the account can pay, show the address
 * and the fee, deploy, then store the account and the deploy transaction. Nothing is stored
 * before the user approves and the node accepts the deployment.
 */
import { accountRecordFor } from '../accounts';
import { deriveAccountKey } from '../keys';
import { userRejected } from '../errors';
import { findAccount, stateStore, upsertAccount, upsertTransaction } from '../state';
import { confirm } from '../ui';
import { deployOnce, planDeploy, readAccountSnapshot, requireFunds } from './account';
import { DeployAccountScreen } from './dialogs';
import { getChain } from '../node/chain';
import { findDeployTxnHash } from '../node/explorer';
import { deployRecord } from '../starknet/records';

export type DeployResult = { address: string; transaction_hash: string };

/** The site at `origin` was granted `index` already (methods/createAccount.ts). */
export async function deployAccount(
  index: number,
  chainId: string,
  origin: string,
): Promise<DeployResult> {
  const key = await deriveAccountKey(index);
  const chain = getChain(chainId);
  const snapshot = await readAccountSnapshot(chain, key.address);

  // Already on chain (or deployed by this snap meanwhile): nothing to send. The snap records
  // the account, with the deploy hash from the explorer when it did not know it yet.
  const recordDeployed = async (localHash?: string): Promise<DeployResult> => {
    const known =
      findAccount(await stateStore.read(), chainId, key.address)?.deployTxnHash || localHash;
    const deployTxnHash = known || (await findDeployTxnHash(chain.explorer, key.address));
    const record = await stateStore.update((state) => {
      const existing = findAccount(state, chainId, key.address);
      return upsertAccount(state, {
        ...(existing ?? accountRecordFor(key, chainId)),
        deployTxnHash: existing?.deployTxnHash || deployTxnHash,
      });
    });
    return { address: key.address, transaction_hash: record.deployTxnHash };
  };

  if (snapshot.deployed) {
    return recordDeployed();
  }

  const plan = await planDeploy(chain, key, snapshot);
  requireFunds(key.address, plan.snapshot.strkBalance, plan.maxCharge, 'the account deployment');
  const approved = await confirm(
    origin,
    DeployAccountScreen({
      address: key.address,
      network: chain.network,
      maxFee: plan.maxCharge,
      overallFee: plan.estimate.overall_fee,
    }),
  );
  if (!approved) {
    throw userRejected();
  }
  const outcome = await deployOnce(chain, key, plan.bounds);
  if (!outcome.sent) {
    return recordDeployed(outcome.localHash);
  }
  const transactionHash = outcome.transactionHash;
  const txnRecord = deployRecord(transactionHash, key.address, key.constructorCalldata, chainId);
  await stateStore.update((state) => {
    const existing = findAccount(state, chainId, key.address);
    upsertAccount(state, {
      ...(existing ?? accountRecordFor(key, chainId)),
      deployTxnHash: txnRecord.txnHash,
    });
    upsertTransaction(state, txnRecord);
  });
  return { address: key.address, transaction_hash: transactionHash };
}
