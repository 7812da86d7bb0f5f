/** Shared by the gateway's tests: real anvil, a seeded chain, a gateway, raw JSON-RPC calls. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ANVIL_ACCOUNTS } from '@l2wallet/testkit';
import { request } from 'undici';
import { createPublicClient, createWalletClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { newKey, type NewKeyOptions } from '../src/auth/keys';
import type { GatewayConfig } from '../src/config';
import { type RunningGateway, startGateway } from '../src/server';

export const tempDir = (): string => mkdtempSync(path.join(tmpdir(), 'l2-gateway-'));

/** Raw POSTs (any body, any header such as Host) and JSON-RPC request objects: the testkit's. */
export {
  postJson as post,
  jsonRpcRequest as call,
  type HttpReply as RpcReply,
} from '@l2wallet/testkit';

export function gatewayConfig(
  upstream: string,
  overrides: Partial<GatewayConfig> & { partner?: string; wsUpstream?: string } = {},
): GatewayConfig {
  const { partner, wsUpstream, ...rest } = overrides;
  return {
    listen: { host: '127.0.0.1', port: 0 },
    ledger: { sqlite: path.join(tempDir(), 'gateway.db') },
    chains: [{ name: 'local', hosts: ['*'], upstreams: [upstream], partner, wsUpstream }],
    healthIntervalMs: 300,
    upstreamTimeoutMs: 2000,
    ...rest,
  };
}

export async function startWithKey(
  config: GatewayConfig,
  keyOptions: NewKeyOptions = { plan: 'team' },
  options: Parameters<typeof startGateway>[1] = {},
): Promise<{ gw: RunningGateway; key: string; rpcUrl: string }> {
  const gw = await startGateway(config, options);
  const key = await addKey(gw, keyOptions);
  return { gw, key, rpcUrl: `${gw.url}/v3/${key}` };
}

export async function addKey(gw: RunningGateway, options: NewKeyOptions): Promise<string> {
  const created = newKey(options);
  await gw.gateway.keys.add(created.record);
  return created.key;
}

export async function usageOf(gw: RunningGateway, key: string) {
  const response = await request(`${gw.url}/v3/${key}/usage`);
  return (await response.body.json()) as {
    total: number;
    limit: number;
    left: number;
    methods: Record<string, number>;
    lastHour: { minute: string; credits: number }[];
  };
}

// Runtime: SSTORE(0, 0x2a); LOG0(0, 0); STOP. Any call stores 42 in slot 0 and emits a log.
const RUNTIME = '602a60005560006000a000';

/** Init code that returns `runtime` as the contract's code. */
export function deployCode(runtime: string): Hex {
  const length = (runtime.length / 2).toString(16).padStart(2, '0');
  return `0x60${length}600c60003960${length}6000f3${runtime}`;
}

/** Init code that reverts with `data` (used as eth_call data with no `to`). */
export function revertingCode(data: string): Hex {
  const body = data.replace(/^0x/, '');
  const length = (body.length / 2).toString(16).padStart(2, '0');
  return `0x60${length}600c60003960${length}6000fd${body}`;
}

export function errorStringData(reason: string): string {
  const bytes = Buffer.from(reason, 'utf8');
  const word = (n: number) => n.toString(16).padStart(64, '0');
  const padded = bytes.toString('hex').padEnd(Math.ceil(bytes.length / 32) * 64, '0');
  return `0x08c379a0${word(32)}${word(bytes.length)}${padded}`;
}

export interface Seeded {
  contract: Hex;
  transfers: Hex[];
  calls: Hex[];
  blockHash: Hex;
}

/** A few blocks of real transactions: transfers, a contract deploy, calls that emit logs. */
export async function seedChain(url: string): Promise<Seeded> {
  const account = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
  const wallet = createWalletClient({ account, chain: foundry, transport: http(url) });
  const client = createPublicClient({ chain: foundry, transport: http(url) });
  const transfers: Hex[] = [];
  for (let i = 0; i < 2; i++) {
    transfers.push(
      await wallet.sendTransaction({
        to: ANVIL_ACCOUNTS[1].address,
        value: 10n ** 15n * BigInt(i + 1),
      }),
    );
  }
  const deploy = await wallet.sendTransaction({ data: deployCode(RUNTIME) });
  const receipt = await client.waitForTransactionReceipt({ hash: deploy });
  const contract = receipt.contractAddress as Hex;
  const calls: Hex[] = [];
  for (let i = 0; i < 2; i++)
    calls.push(await wallet.sendTransaction({ to: contract, data: '0x01' }));
  const last = await client.waitForTransactionReceipt({ hash: calls[1] });
  return { contract, transfers, calls, blockHash: last.blockHash };
}
