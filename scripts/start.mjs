#!/usr/bin/env node
// `npm start`: the whole local stack with no internet.
//   devnet (127.0.0.1:5050) -> Starknet paymaster (SNIP-29, 127.0.0.1:8090, in front of the devnet)
//   -> snap dev server (mm-snap watch, bundle built against the devnet)
//   -> anvil (127.0.0.1:8546) -> site (gatsby develop). Ctrl-C stops every process group it started
// (each is a @l2wallet/testkit service: its own process group, killed with its tree).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { anvilBinary, portAnswers, rpcResponse, runCommand, spawnService } from '@l2wallet/testkit';

import { startEvmStack } from './start/evm.mjs';
import { startGatewayDemo } from './start/gateway.mjs';
import { startStarknetPaymaster } from './start/paymaster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const DEVNET_PORT = Number(process.env.DEVNET_PORT ?? 5050);
const SNAP_PORT = 8085; // packages/snap/snap.config.ts server.port
// The EVM side: one anvil serves the keyring snap's contracts and bundler and the gateway.
const ANVIL_PORT = Number(process.env.ANVIL_PORT ?? 8546);
const anvilUrl = `http://127.0.0.1:${ANVIL_PORT}`;
const SITE_PORT = Number(process.env.SITE_PORT ?? 8000);
const devnetUrl = `http://127.0.0.1:${DEVNET_PORT}`;
const devnetRpcUrl = `${devnetUrl}/rpc`;
const snapId = `local:http://localhost:${SNAP_PORT}`;
const siteUrl = `http://localhost:${SITE_PORT}`;

const services = [];
let stopping = false;

function log(message) {
  process.stdout.write(`[start] ${message}\n`);
}

/** Something listens on the port over IPv4 or IPv6 loopback ('localhost' may be either). */
async function portInUse(port) {
  const [v4, v6] = await Promise.all([portAnswers(port, '127.0.0.1'), portAnswers(port, '::1')]);
  return v4 || v6;
}

async function runOnce(label, command, args, cwd = root) {
  log(`${label}...`);
  try {
    await runCommand(command, args, { cwd, inherit: true, timeoutMs: 900_000 });
  } catch (error) {
    log(`${label} failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

/**
 * One long-running part of the stack, its output shown prefixed with its label. If it cannot
 * start, or exits later, everything stops. Resolves with the testkit service once spawned.
 */
function start(label, command, args, { cwd = root, env = {} } = {}) {
  const started = spawnService({
    name: label,
    command,
    args,
    cwd,
    env,
    echo: (line) => process.stdout.write(`[${label}] ${line}\n`),
    onExit: (code, signal) => {
      if (!stopping) {
        log(`${label} exited (${signal ?? code}); stopping everything.`);
        stop(1);
      }
    },
  });
  started.then(
    (service) => services.push(service),
    (error) => {
      log(`${label} failed: ${error.message}; stopping everything.`);
      stop(1);
    },
  );
  return started;
}

function stop(exitCode = 0) {
  if (stopping) return;
  stopping = true;
  log('stopping...');
  Promise.all(services.map((service) => service.stop('SIGTERM', 5000))).finally(() =>
    process.exit(exitCode),
  );
}

// The snap dev servers rebuild with local endpoints and rewrite their manifest's shasum; the
// committed manifests are put back on exit so `npm start` leaves the work tree clean.
const watchedManifests = ['packages/snap', 'packages/keyring-snap'].map((folder) => {
  const file = path.join(root, folder, 'snap.manifest.json');
  return { file, text: existsSync(file) ? readFileSync(file, 'utf8') : undefined };
});

function restoreManifests() {
  for (const { file, text } of watchedManifests) {
    if (text !== undefined && readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
  }
}

async function waitFor(label, check, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping) return false;
    if (await check().catch(() => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  log(`${label} did not come up within ${timeoutMs / 1000}s.`);
  stop(1);
  return false;
}

async function rpcAnswers(url, method) {
  return 'result' in (await rpcResponse(url, method));
}

async function httpOk(url) {
  const response = await fetch(url);
  return response.ok;
}

async function main() {
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  process.on('SIGHUP', () => stop(0)); // terminal closed
  // Backstop: however this process ends (an uncaught error, process.exit elsewhere), no
  // detached process group is left behind.
  process.on('exit', () => {
    for (const service of services) service.killNow();
    restoreManifests();
  });

  for (const [port, what] of [
    [DEVNET_PORT, 'devnet'],
    [ANVIL_PORT, 'anvil'],
    [SNAP_PORT, 'snap dev server'],
    [SITE_PORT, 'site'],
  ]) {
    if (await portInUse(port)) {
      log(`port ${port} (${what}) is already in use; stop whatever holds it and retry.`);
      process.exit(1);
    }
  }

  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await runOnce('building packages/devnet', npm, [
    'run',
    'build',
    '--workspace',
    'packages/devnet',
  ]);
  await runOnce('building packages/client', npm, [
    'run',
    'build',
    '--workspace',
    'packages/client',
  ]);

  start('devnet', process.execPath, [
    path.join(root, 'packages/devnet/dist/cli.js'),
    '--host',
    '127.0.0.1',
    '--port',
    String(DEVNET_PORT),
  ]);
  if (!(await waitFor('devnet', () => rpcAnswers(devnetRpcUrl, 'starknet_chainId')))) return;
  log(`devnet is up at ${devnetRpcUrl}`);
  const paymaster = await startStarknetPaymaster({
    root,
    devnetRpcUrl,
    start,
    log,
    runOnce,
    waitFor,
  });
  if (!paymaster) return;

  start('anvil', anvilBinary(), ['--host', '127.0.0.1', '--port', String(ANVIL_PORT), '--silent']);
  if (!(await waitFor('anvil', () => rpcAnswers(anvilUrl, 'eth_chainId')))) return;
  log(`anvil is up at ${anvilUrl}`);
  // The EVM stack on this anvil (scripts/start/evm.mjs): ERC-4337 contracts, Alto, paymaster, the
  // keyring snap.
  const evm = await startEvmStack({ root, anvilUrl, start, log, onFailure: () => stop(1) });
  if (!evm) return;
  const gateway = await startGatewayDemo({
    root,
    anvilUrl,
    devnetRpcUrl,
    start,
    log,
    runOnce,
    waitFor,
  });
  if (!gateway) return;

  start('client', bin('tsc'), [
    '-p',
    'packages/client/tsconfig.build.json',
    '--watch',
    '--preserveWatchOutput',
  ]);

  start('snap', bin('mm-snap'), ['watch'], {
    cwd: path.join(root, 'packages/snap'),
    // The snap's Testnet goes through the gateway (metered, merged, cached) with the demo key.
    env: {
      SNAP_TESTNET_RPC_URL: gateway.starknetUrl,
      SNAP_TESTNET_EXPLORER_URL: devnetUrl,
      SNAP_TESTNET_PAYMASTER_URL: paymaster.url,
    },
  });
  const siteDir = path.join(root, 'packages/site');
  start('site', bin('gatsby'), ['develop', '-H', 'localhost', '-p', String(SITE_PORT)], {
    cwd: siteDir,
    env: {
      GATSBY_TELEMETRY_DISABLED: '1',
      GATSBY_SNAP_ID: snapId,
      GATSBY_DEVNET_RPC_URL: devnetRpcUrl,
      GATSBY_KEYRING_SNAP_ID: evm.snapId,
      // The Gateway page opens on this gateway with the demo key filled in.
      GATSBY_GATEWAY_URL: gateway.url,
      GATSBY_GATEWAY_KEY: gateway.key,
      // The starknet-react page's sponsored transactions go through this paymaster, demo key set.
      GATSBY_PAYMASTER_URL: paymaster.url,
      GATSBY_PAYMASTER_API_KEY: paymaster.apiKey,
    },
  });

  if (
    !(await waitFor(
      'snap dev server',
      () => httpOk(`http://localhost:${SNAP_PORT}/snap.manifest.json`),
      300_000,
    ))
  )
    return;
  if (!(await waitFor('site', () => httpOk(siteUrl), 300_000))) return;

  const line = '-'.repeat(72);
  process.stdout.write(
    [
      '',
      line,
      '  Local Starknet stack is running (no internet needed):',
      `    devnet RPC        ${devnetRpcUrl}`,
      ...paymaster.lines,
      `    anvil (EVM)       ${anvilUrl}`,
      ...evm.lines,
      `    gateway (EVM)     ${gateway.url}/v3/${gateway.key}   (demo API key)`,
      `    gateway Starknet  ${gateway.starknetUrl}   (Testnet in the snap points here)`,
      `    Gateway page      ${siteUrl}/gateway/   (both chains' usage, demo key filled in)`,
      `    snap dev server   http://localhost:${SNAP_PORT}   (snap id ${snapId})`,
      `    site              ${siteUrl}`,
      '',
      `  Open ${siteUrl} in a browser with MetaMask Flask, click "Connect",`,
      '  approve the snap install, then create an account and "Fund from devnet".',
      existsSync(path.join(root, 'packages/site/README.md'))
        ? '  More in packages/site/README.md. Press Ctrl-C to stop everything.'
        : '  Press Ctrl-C to stop everything.',
      line,
      '',
    ].join('\n'),
  );
}

main().catch((error) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  stop(1);
});
