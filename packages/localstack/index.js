'use strict';
// Real local services for tests, benchmarks and `npm start`. Plain CommonJS so that TypeScript
// tests (through index.d.ts), ESM scripts and .mjs benchmarks all load it without a build step.
// Every service runs in its own process group on 127.0.0.1 and is stopped with its whole tree.
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');

const LOOPBACK = '127.0.0.1';
const live = new Set();

// Backstop: a test runner that exits without calling stop() must not leave nodes running.
process.once('exit', () => {
  for (const service of live) service.killNow();
});

/** A TCP port that was free on 127.0.0.1 a moment ago. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function portAnswers(port, host = LOOPBACK) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Spawns `command` in its own process group and resolves once `readyLine` shows in its output
 * or `readyPort` accepts connections. Rejects (and kills it) on early exit or timeout, with the
 * tail of its output so the cause is visible.
 */
function spawnService(options) {
  const {
    name,
    command,
    args = [],
    env = {},
    cwd,
    readyLine,
    readyPort,
    timeoutMs = 60_000,
  } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let settled = false;
    let exited = false;
    const onData = (chunk) => {
      output += chunk.toString();
      if (output.length > 200_000) output = output.slice(-100_000);
      if (!settled && readyLine && readyLine.test(output)) ready();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);

    const killGroup = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const service = {
      name,
      pid: child.pid,
      output: () => output,
      killNow: () => killGroup('SIGKILL'),
      stop: (signal = 'SIGTERM', graceMs = 5000) =>
        new Promise((done) => {
          live.delete(service);
          if (exited) return done();
          const force = setTimeout(() => killGroup('SIGKILL'), graceMs);
          child.once('exit', () => {
            clearTimeout(force);
            done();
          });
          killGroup(signal);
        }),
    };
    live.add(service);

    const fail = (message) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      service.stop('SIGKILL', 0).then(() => {
        reject(new Error(`${name}: ${message}\n${output.slice(-3000)}`));
      });
    };
    function ready() {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      resolve(service);
    }
    child.once('error', (error) => fail(`could not start (${error.message})`));
    child.once('exit', (code, signal) => {
      exited = true;
      live.delete(service);
      fail(`exited before it was ready (${signal ?? code})`);
    });
    const timer = setTimeout(() => fail(`not ready after ${timeoutMs} ms`), timeoutMs);
    const poll = readyPort
      ? setInterval(async () => {
          if (!settled && (await portAnswers(readyPort))) ready();
        }, 50)
      : undefined;
  });
}

/**
 * The anvil binary inside @foundry-rs/anvil-linux-amd64, spawned directly so its PID is the
 * node's. We depend on that package rather than the @foundry-rs/anvil wrapper: the registry
 * mirror here lacks the wrapper's other-platform packages, which makes `npm ci` refuse the lock.
 */
function anvilBinary() {
  const pkg = require.resolve('@foundry-rs/anvil-linux-amd64/package.json');
  return path.join(path.dirname(pkg), 'bin', 'anvil');
}

/**
 * A real anvil on 127.0.0.1. `args` adds flags (for example ['--block-time', '1'],
 * ['--dump-state', file] or ['--load-state', file]).
 */
async function startAnvil(options = {}) {
  const port = options.port ?? (await freePort());
  const service = await spawnService({
    name: 'anvil',
    command: anvilBinary(),
    args: ['--host', LOOPBACK, '--port', String(port), ...(options.args ?? [])],
    readyLine: /Listening on/,
    timeoutMs: options.timeoutMs ?? 60_000,
  });
  return {
    ...service,
    port,
    url: `http://${LOOPBACK}:${port}`,
    wsUrl: `ws://${LOOPBACK}:${port}`,
  };
}

/** A throwaway redis-server on 127.0.0.1 (no persistence); `apt-get install redis-server`. */
async function startRedis(options = {}) {
  const port = options.port ?? (await freePort());
  const service = await spawnService({
    name: 'redis-server',
    command: options.binary ?? 'redis-server',
    args: ['--port', String(port), '--bind', LOOPBACK, '--save', '', '--appendonly', 'no'],
    readyLine: /Ready to accept connections/,
    timeoutMs: options.timeoutMs ?? 30_000,
  });
  return { ...service, port, url: `redis://${LOOPBACK}:${port}` };
}

/**
 * anvil's default dev accounts (mnemonic "test test ... junk"): public test keys, never funded
 * anywhere real.
 */
const ANVIL_ACCOUNTS = [
  {
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  },
  {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  },
  {
    address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    privateKey: '0x5de4111afa1a4b94908f83103eb1d1706367c2e68ca870fc3fb9a804cdab365a',
  },
];

module.exports = {
  LOOPBACK,
  ANVIL_ACCOUNTS,
  anvilBinary,
  freePort,
  portAnswers,
  spawnService,
  startAnvil,
  startRedis,
};

// The ERC-4337 side (contracts, Alto, paymaster service) lives in aa.js; it uses the helpers above.
Object.assign(module.exports, require('./aa'));
Object.assign(module.exports, require('./snapBuild'));
