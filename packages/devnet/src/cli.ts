#!/usr/bin/env node
import { closeOnSignals } from '@l2wallet/jsonrpc';

import { DevnetServer, DevnetServerOptions, startDevnetServer } from './server';
import {
  ETH_TOKEN_ADDRESS,
  RPC_SPEC_VERSION,
  STRK_TOKEN_ADDRESS,
  UDC_ADDRESS,
} from './core/constants';

const USAGE = `Usage: l2-devnet [options]
  --host <host>          interface to bind (default 127.0.0.1)
  --port <port>          port to listen on (default 5050, 0 = any free port)
  --seed <n>             seed of the predeployed accounts (default 0)
  --accounts <n>         number of predeployed accounts (default 10)
  --block-time <ms>      milliseconds between blocks; 0 = a block per transaction (default 0)
  --preconfirm-delay <ms>
                         with a block time: ms a submitted transaction stays RECEIVED
                         before it is executed (default min(250, block time / 4))
  --chain-id <id>        SN_SEPOLIA (default), SN_MAIN or any short string
  --rpc-version <x.y.z>  the JSON-RPC version starknet_specVersion reports (default 0.10.0;
                         0.9.x also takes 0.9's getEvents filter: one address)
  --start-time <s>       unix seconds of the genesis block (default: now)
  --starknet-version <x.y.z>
                         the Starknet version blocks report (default 0.14.1; before 0.14.1 a
                         declare's compiled class hash is the Poseidon one)
  --help                 show this help`;

const NUMERIC = new Set([
  'port',
  'seed',
  'accounts',
  'block-time',
  'preconfirm-delay',
  'start-time',
]);

export function parseArgs(argv: string[]): DevnetServerOptions {
  const options: DevnetServerOptions = { host: '127.0.0.1', port: 5050 };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`unexpected argument: ${arg}`);
    const name = match[1];
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    if (NUMERIC.has(name)) {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0)
        throw new Error(`--${name} must be a non-negative integer`);
      if (name === 'port') options.port = n;
      if (name === 'seed') options.seed = n;
      if (name === 'accounts') options.accounts = n;
      if (name === 'block-time') options.blockTime = n;
      if (name === 'preconfirm-delay') options.preconfirmDelayMs = n;
      if (name === 'start-time') options.startTime = n;
    } else if (name === 'host') options.host = value;
    else if (name === 'chain-id') options.chainId = value;
    else if (name === 'rpc-version') {
      if (!/^\d+\.\d+\.\d+$/.test(value))
        throw new Error('--rpc-version must be a version such as 0.9.0 or 0.10.0');
      options.rpcVersion = value;
    } else if (name === 'starknet-version') {
      if (!/^\d+\.\d+\.\d+$/.test(value))
        throw new Error('--starknet-version must be a version such as 0.14.0 or 0.14.1');
      options.starknetVersion = value;
    } else throw new Error(`unknown option --${name}\n${USAGE}`);
  }
  return options;
}

async function main(): Promise<void> {
  let options: DevnetServerOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  // Handlers first, so a signal that arrives right after start-up still shuts down cleanly.
  const running = closeOnSignals({
    onSignal: (signal) => console.log(`${signal} received, shutting down`),
  });
  const devnet = await startDevnetServer(options);
  if (!running(() => devnet.close())) {
    await devnet.close();
    return;
  }
  console.log(describeDevnet(devnet, options));
}

function describeDevnet(devnet: DevnetServer, options: DevnetServerOptions): string {
  const lines = [
    `l2-devnet listening on ${devnet.url} (JSON-RPC at ${devnet.rpcUrl}, WebSocket at ${devnet.wsUrl}, explorer at ${devnet.url}/api/txns)`,
    `chain id ${options.chainId ?? 'SN_SEPOLIA'}, JSON-RPC ${options.rpcVersion ?? RPC_SPEC_VERSION}, ${options.blockTime ? `a block every ${options.blockTime} ms` : 'a block per transaction'}`,
    `ETH ${ETH_TOKEN_ADDRESS}`,
    `STRK ${STRK_TOKEN_ADDRESS}`,
    `UDC ${UDC_ADDRESS}`,
    '',
    'Predeployed accounts (OpenZeppelin 1.0.0), each funded with ETH and STRK:',
  ];
  devnet.predeployedAccounts.forEach((account, index) => {
    lines.push(
      `| Account #${index}`,
      `| Address     ${account.address}`,
      `| Private key ${account.private_key}`,
      `| Public key  ${account.public_key}`,
      `| Balance     ${account.initial_balance}`,
      '',
    );
  });
  return lines.join('\n');
}

if (require.main === module) {
  void main();
}
