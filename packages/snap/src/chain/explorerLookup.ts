/**
 * Looks up an account's deployment transaction in the explorer. The list is newest first, so
 * the deploy is on the last page: read pages of 50 until it shows up or the list ends.
 */
import type { ExplorerClient } from './explorer';

export const MAX_DEPLOY_LOOKUP_PAGES = 10;

/**
 * Best effort: '' when no explorer is configured, or it does not know the deployment or cannot
 * be reached.
 */
export async function findDeployTxnHash(
  explorer: ExplorerClient | undefined,
  address: string,
): Promise<string> {
  if (!explorer) {
    return '';
  }
  try {
    return await lookUp(explorer, address);
  } catch {
    return '';
  }
}

async function lookUp(explorer: ExplorerClient, address: string): Promise<string> {
  const target = BigInt(address);
  const isTarget = (value: string): boolean => value !== '' && BigInt(value) === target;
  for (let page = 1; page <= MAX_DEPLOY_LOOKUP_PAGES; page += 1) {
    const result = await explorer.listTransactions(address, 50, page);
    const deploy = result.items.find(
      (item) =>
        item.type.toUpperCase() === 'DEPLOY_ACCOUNT' &&
        (isTarget(item.contract) || isTarget(item.sender)),
    );
    if (deploy) {
      return `0x${BigInt(deploy.hash).toString(16)}`;
    }
    if (!result.hasMore) {
      return '';
    }
  }
  return '';
}
