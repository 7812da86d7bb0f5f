/**
 * The one module through which the site reads the snap's accounts: the recovery scan, account
 * creation, and an account a method card created. useAccounts keeps what it returns.
 */
import type {
  AccountRecord,
  CreateAccountParams,
  FeeMode,
  StarknetSnapClient,
} from '@l2wallet/client';

export interface Account {
  address: string;
  addressIndex: number;
  deployed?: boolean;
}

/** The page's scan: indexes from 0, at most 5, stopping after the first one never used. */
export async function recoverAccounts(
  client: StarknetSnapClient,
  chainId: string,
): Promise<{ records: AccountRecord[]; accounts: Account[] }> {
  const records = await client.recoverAccounts({
    startScanIndex: 0,
    maxScanned: 5,
    maxMissed: 1,
    chainId,
  });
  const accounts = records.map((record) => ({
    address: record.address,
    addressIndex: record.addressIndex,
    deployed: Boolean(record.deployTxnHash),
  }));
  return { records, accounts };
}

/**
 * Derives the account at `addressIndex` (and deploys it with `deploy`, its fee paid in a gas
 * token through the paymaster with `feeMode`); the snap's answer too.
 */
export async function createAccount(
  client: StarknetSnapClient,
  {
    addressIndex,
    deploy,
    chainId,
    feeMode,
  }: Required<Omit<CreateAccountParams, 'details'>> & { feeMode?: FeeMode },
) {
  const result = await client.createAccount({
    addressIndex,
    deploy,
    chainId,
    ...(feeMode ? { details: { feeMode } } : {}),
  });
  const account: Account = { address: result.address, addressIndex, deployed: deploy || undefined };
  return { account, result };
}

/** The account an `l2_createAccount` call (a method card's) created, if it answered one. */
export function accountFromResult(
  params: Record<string, unknown> | undefined,
  result: unknown,
): Account | null {
  if (typeof result !== 'object' || result === null) return null;
  const address = (result as { address?: unknown }).address;
  if (typeof address !== 'string' || !address) return null;
  return { address, addressIndex: Number(params?.addressIndex ?? 0) };
}

/** The accounts of both lists, one per address (`more` wins), in index order. */
export function mergeAccounts(old: Account[], more: Account[]): Account[] {
  const byAddress = new Map(old.map((account) => [account.address, account]));
  for (const account of more)
    byAddress.set(account.address, { ...byAddress.get(account.address), ...account });
  return [...byAddress.values()].sort((a, b) => a.addressIndex - b.addressIndex);
}

/** The index a new account gets: one past the highest listed. */
export function nextAccountIndex(accounts: Account[]): number {
  return accounts.length ? Math.max(...accounts.map((account) => account.addressIndex)) + 1 : 0;
}

/**
 * The account to select in `accounts`: the current one if listed, else the one remembered, else the
 * first.
 */
export function pickSelected(accounts: Account[], current: string, remembered?: string): string {
  const listed = (address?: string) => !!address && accounts.some((a) => a.address === address);
  if (listed(current)) return current;
  if (listed(remembered)) return remembered as string;
  return accounts[0]?.address ?? '';
}
