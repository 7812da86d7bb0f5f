/** The devnet calls the site makes itself: these go to the local node, not to the wallet. */

async function devnetRpc<T>(url: string, method: string, params: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: Date.now(), method, params }),
  });
  if (!response.ok) throw new Error(`devnet answered HTTP ${response.status}`);
  const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw new Error(`devnet error ${body.error.code}: ${body.error.message}`);
  return body.result as T;
}

/** The devnet's chain id, or null when no devnet answers at that URL. */
export async function devnetChainId(url: string): Promise<string | null> {
  try {
    return await devnetRpc<string>(url, 'starknet_chainId', []);
  } catch {
    return null;
  }
}

export interface MintResult {
  new_balance: string;
  unit: string;
  tx_hash: string;
}

/** Mints STRK (unit FRI) or ETH (unit WEI) to an address on the devnet. */
function mint(url: string, address: string, amount: bigint, unit: 'FRI' | 'WEI') {
  // starknet-devnet takes `amount` as a JSON integer; amounts like 1e20 are exact as doubles.
  return devnetRpc<MintResult>(url, 'devnet_mint', { address, amount: Number(amount), unit });
}

/** Mints STRK (in FRI) to an address on the devnet. */
export function mintStrk(url: string, address: string, amountFri: bigint): Promise<MintResult> {
  return mint(url, address, amountFri, 'FRI');
}

/** Mints ETH (in wei) to an address on the devnet. */
export function mintEth(url: string, address: string, amountWei: bigint): Promise<MintResult> {
  return mint(url, address, amountWei, 'WEI');
}
