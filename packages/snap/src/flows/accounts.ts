/**
 * The snap's accounts, the one module every method and the home page reads them through: the
 * state record joined with its derived key (for a site, only the accounts it was granted), what
 * the chain says of them (deployed? balances, the owner key), and the one way a deployment is
 * saved.
 */
import { ETH_TOKEN_ADDRESS, STRK_TOKEN_ADDRESS } from '@l2wallet/starknet-protocol';
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

import { invalidParams } from '../errors';
import { cachedAccountKey, type AccountKey } from '../keys';
import { readAccounts, readAccountState, settled, type AccountAnswers } from '../node/accounts';
import type { ChainContext } from '../node/chain';
import { expectedNonce } from '../node/nonces';
import { readOnChainPublicKey } from '../node/onChainAccount';
import { toHex } from '../starknet/felt';
import type { PaymasterDeployment } from '../starknet/paymaster';
import { deployRecord } from '../starknet/records';
import {
  accountsOf,
  findAccount,
  findOwnAccount,
  keepNonce,
  keptNonceOf,
  stateStore,
  upsertAccount,
  upsertTransaction,
  type AccountRecord,
  type SnapState,
} from '../state';
import { requireGrantedAccount } from './grants';

/** The account record a fresh derivation gives, for `chainId`. */
export function accountRecordFor(key: AccountKey, chainId: string): AccountRecord {
  return {
    address: key.address,
    addressIndex: key.addressIndex,
    publicKey: key.publicKey,
    addressSalt: key.addressSalt,
    deployTxnHash: '',
    derivationPath: key.derivationPath,
    chainId,
  };
}

/**
 * What deploys the account: SNIP-29's ACCOUNT_DEPLOYMENT_DATA, the wallet API's
 * `wallet_deploymentData` (Argent 0.3.1 class hash, salt, constructor calldata, version 1).
 */
export function accountDeploymentData(key: AccountKey): PaymasterDeployment {
  return {
    address: key.address,
    class_hash: key.classHash,
    salt: key.addressSalt,
    calldata: key.constructorCalldata,
    version: 1,
  };
}

/** The account's record on `chainId`, a fresh one stored when the snap had none there. */
export function rememberAccount(state: SnapState, key: AccountKey, chainId: string): AccountRecord {
  return (
    findAccount(state, chainId, key.address) ?? upsertAccount(state, accountRecordFor(key, chainId))
  );
}

/** The hash of the account's deployment on `chainId` that the snap knows, '' when none. */
export function knownDeployHash(state: SnapState, chainId: string, address: string): string {
  return findAccount(state, chainId, address)?.deployTxnHash ?? '';
}

/** Whether the account is deployed on the chain (pre_confirmed): one round trip. */
export async function isDeployed(chain: ChainContext, address: string): Promise<boolean> {
  return (await readAccountState(chain.rpc, address)).deployed;
}

/** The accounts the snap holds on `chainId`, by index. */
export function networkAccounts(state: SnapState, chainId: string): AccountRecord[] {
  return [...accountsOf(state, chainId)].sort((a, b) => a.addressIndex - b.addressIndex);
}

/**
 * The key of one of the snap's accounts that the site at `origin` was granted. Every other
 * address, a stranger's or one of the user's the site was not granted, is the same -32602 naming
 * `field` (grants.ts), before any key is derived or anything else is read. The derivation is
 * checked against the stored address so a corrupted record cannot make the snap sign with a key
 * the user did not mean.
 */
export async function requireOwnAccountKey(
  address: string,
  chainId: string,
  field: string,
  origin: string,
): Promise<AccountKey> {
  const { addressIndex } = await requireGrantedAccount(origin, address, chainId, field);
  // Only a stored account's key is kept in memory (keys/index.ts, bounded).
  const key = await cachedAccountKey(addressIndex);
  if (BigInt(key.address) !== BigInt(address)) {
    throw invalidParams(field, `does not match the key stored for index ${addressIndex}`);
  }
  return key;
}

/**
 * An account's public key (l2_extractPublicKey): the owner on chain when the account is
 * deployed. When the node cannot be reached and the snap has never seen the account deployed,
 * the derived key is the answer (it is the owner until an owner change, which needs a deployed
 * account); for an account known to be deployed the node error stands (retryable).
 */
export async function accountPublicKey(key: AccountKey, chainId: string): Promise<string> {
  try {
    return (await readOnChainPublicKey(key.address, chainId)) ?? key.publicKey;
  } catch (error) {
    if (error instanceof ResourceUnavailableError) {
      const record = findOwnAccount(await stateStore.read(), chainId, key.address);
      if (!record?.deployTxnHash) {
        return key.publicKey;
      }
    }
    throw error;
  }
}

/** What the chain says of an account: undefined where the node could not answer. */
export type AccountOnChain = { deployed?: boolean; strk?: bigint; eth?: bigint };

const BALANCES = { block: 'latest', tokens: [STRK_TOKEN_ADDRESS, ETH_TOKEN_ADDRESS] } as const;

/**
 * Deployed? and the STRK and ETH balances (latest) of many accounts, one batch (the home page).
 * A read the node refused is left undefined; a malformed answer fails the whole read.
 */
export async function readAccountsOnChain(
  chain: ChainContext,
  addresses: readonly string[],
): Promise<AccountOnChain[]> {
  const { accounts } = await readAccounts(chain.rpc, addresses, BALANCES);
  return accounts.map(({ deployed, balances: [strk, eth] }) => ({
    deployed: deployed.ok ? deployed.result : undefined,
    strk: strk.ok ? strk.result : undefined,
    eth: eth.ok ? eth.result : undefined,
  }));
}

/**
 * Deployed? and the STRK and ETH balances (latest) of many accounts, one batch
 * (l2_recoverAccounts): each account's answers, read with `scanned`.
 */
export async function scanAccounts(
  chain: ChainContext,
  addresses: readonly string[],
): Promise<AccountAnswers[]> {
  return (await readAccounts(chain.rpc, addresses, BALANCES)).accounts;
}

/** Whether a scanned account is deployed and holds STRK or ETH; a read the node refused fails. */
export function scanned(answers: AccountAnswers): { deployed: boolean; hasBalance: boolean } {
  const deployed = settled(answers.deployed, 'Recovering accounts');
  const held = answers.balances.map((balance) => settled(balance, 'Recovering accounts'));
  return { deployed, hasBalance: held.some((amount) => amount > 0n) };
}

/**
 * THE one way a deployment is saved, inside a state update: the account's record on `chainId`
 * (created there when the snap knew the account on another network only, its derived fields
 * refreshed) with the deployment's hash, and, when this snap `sent` the deployment, its
 * transaction record (unless `record` is false: a relayer's transaction that also runs calls is
 * recorded as that invoke). A hash found elsewhere (the explorer, '' when none) never replaces a
 * known one; a deployment this snap sent always does.
 */
export function noteDeployment(
  state: SnapState,
  key: AccountKey,
  chainId: string,
  deployTxnHash: string,
  sent: boolean,
  record = sent,
): AccountRecord {
  const known = findAccount(state, chainId, key.address)?.deployTxnHash ?? '';
  const hash = deployTxnHash ? toHex(deployTxnHash) : '';
  const account = upsertAccount(state, {
    ...accountRecordFor(key, chainId),
    deployTxnHash: sent ? hash : known || hash,
  });
  if (sent && record) {
    upsertTransaction(
      state,
      deployRecord(deployTxnHash, key.address, key.constructorCalldata, chainId),
    );
  }
  return account;
}

/** noteDeployment (and keepExpectedNonce) in its own state update. */
export async function saveDeployment(
  key: AccountKey,
  chainId: string,
  deployTxnHash: string,
  sent: boolean,
  record = sent,
): Promise<AccountRecord> {
  return stateStore.update((state) => {
    keepExpectedNonce(state, chainId, key.address);
    return noteDeployment(state, key, chainId, deployTxnHash, sent, record);
  });
}

/**
 * Inside a state update the snap makes anyway (a sent transaction's records): keeps the nonce it
 * expects the account to have next (node/nonces.ts), for a later execution, which knows nothing
 * yet (MetaMask stops an idle snap), to guess with (guessedNonce).
 */
export function keepExpectedNonce(state: SnapState, chainId: string, address: string): void {
  const nonce = expectedNonce(chainId, address);
  if (nonce !== undefined) {
    keepNonce(state, chainId, address, nonce);
  }
}

/**
 * The nonce the account batch is guessed to find, for a simulation to ride in it: this
 * execution's expectation, else the one kept with the snap's last send from the account (only a
 * guess: another wallet with the same key may have moved it since).
 */
export async function guessedNonce(chainId: string, address: string): Promise<bigint | undefined> {
  return (
    expectedNonce(chainId, address) ??
    stateStore.pick((state) => keptNonceOf(state, chainId, address))
  );
}
