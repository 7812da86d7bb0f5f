// `npm start`, the gateway part (docs/architecture/gateway.md): builds packages/gateway, seeds a
// few blocks of demo transactions on the anvil that start.mjs started, runs `l2-gateway serve` in
// front of it and of the devnet (a Starknet chain at `/starknet-sepolia/v3/<KEY>`, which the snap's
// Testnet uses) on a printed port, creates a demo key and prints a curl line that works. start.mjs
// passes in its own start()/log()/runOnce()/waitFor() so the gateway is stopped with everything
// else.
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  createGatewayKey,
  freePort,
  gatewayConfig,
  portAnswers,
  rpc,
  writeGatewayConfig,
} from '@l2wallet/testkit';

/** A few blocks of real transactions: two transfers, a contract deploy, two calls with logs. */
async function seed(anvilUrl) {
  const [from, to] = await rpc(anvilUrl, 'eth_accounts');
  await rpc(anvilUrl, 'eth_sendTransaction', [{ from, to, value: '0x38d7ea4c68000' }]);
  await rpc(anvilUrl, 'eth_sendTransaction', [{ from, to, value: '0x71afd498d0000' }]);
  // Runtime: SSTORE(0, 42); LOG0; STOP.
  const deploy = await rpc(anvilUrl, 'eth_sendTransaction', [
    { from, data: '0x600b600c600039600b6000f3602a60005560006000a000' },
  ]);
  let receipt = null;
  while (!receipt) receipt = await rpc(anvilUrl, 'eth_getTransactionReceipt', [deploy]);
  for (let i = 0; i < 2; i++) {
    await rpc(anvilUrl, 'eth_sendTransaction', [
      { from, to: receipt.contractAddress, data: '0x01' },
    ]);
  }
  return receipt.contractAddress;
}

export const STARKNET_CHAIN = 'starknet-sepolia';

export async function startGatewayDemo({
  root,
  anvilUrl,
  devnetRpcUrl,
  start,
  log,
  runOnce,
  waitFor,
}) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await runOnce('building packages/gateway', npm, [
    'run',
    'build',
    '--workspace',
    'packages/gateway',
  ]);
  const cli = path.join(root, 'packages/gateway/dist/cli.js');
  let port = Number(process.env.GATEWAY_PORT ?? 8545);
  if (await portAnswers(port)) port = await freePort();

  const contract = await seed(anvilUrl);
  const dir = path.join(tmpdir(), `l2-gateway-start-${process.pid}`);
  const base = gatewayConfig(anvilUrl);
  const config = writeGatewayConfig(dir, {
    ...base,
    listen: { host: '127.0.0.1', port },
    chains: [
      ...base.chains.map((chain) => ({ ...chain, wsUpstream: anvilUrl.replace(/^http/, 'ws') })),
      // The devnet behind the same key: by path prefix, or by Host starknet.localhost.
      {
        name: STARKNET_CHAIN,
        protocol: 'starknet',
        hosts: ['starknet.localhost'],
        upstreams: [devnetRpcUrl],
      },
    ],
  });
  const key = await createGatewayKey(config, ['--plan', 'developer']);

  start('gateway', process.execPath, [cli, 'serve', '--config', config]);
  const url = `http://127.0.0.1:${port}`;
  const healthy = async () => (await fetch(`${url}/healthz`)).ok;
  if (!(await waitFor('gateway', healthy))) return undefined;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_call',
    params: [{ to: contract, data: '0x' }, 'latest'],
  });
  log(`gateway is up at ${url} (config ${config})`);
  log(`  demo API key ${key} (developer plan: 15,000,000 credits a day)`);
  log(`  try: curl -s -H 'content-type: application/json' -d '${body}' ${url}/v3/${key}`);
  log(
    `  usage: curl -s ${url}/v3/${key}/usage   |   WebSocket: ws://127.0.0.1:${port}/ws/v3/${key}`,
  );
  const starknetUrl = `${url}/${STARKNET_CHAIN}/v3/${key}`;
  log(`  Starknet (the devnet, the snap's Testnet): ${starknetUrl}`);
  return { url, key, starknetUrl };
}
