'use strict';
// The ERC-4337 v0.6 side of the local EVM stack: the @account-abstraction/contracts 0.6.0
// contracts deployed on an anvil, Pimlico's Alto bundler in front of it (on loopback), and a
// small ERC-7677 paymaster service that signs for the deployed VerifyingPaymaster.
const http = require('node:http');
const path = require('node:path');

const { LOOPBACK, ANVIL_ACCOUNTS, freePort, spawnService } = require('./index');

function artifact(name) {
  return require(`@account-abstraction/contracts/artifacts/${name}.json`);
}

/** One JSON-RPC call; a JSON-RPC error is thrown with its code and data. */
async function rpc(url, method, params = []) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await response.json();
  if (body.error) {
    const error = new Error(`${method}: ${body.error.message}`);
    error.code = body.error.code;
    error.data = body.error.data;
    throw error;
  }
  return body.result;
}

/**
 * Deploys EntryPoint, SimpleAccountFactory and VerifyingPaymaster (its verifying signer is
 * `paymasterSigner`, default anvil's third dev account) from anvil's first dev account, and
 * deposits `paymasterDeposit` wei (default 10 ETH) for the paymaster at the EntryPoint.
 */
async function deployAccountAbstraction(anvilUrl, options = {}) {
  const viem = require('viem');
  const { privateKeyToAccount } = require('viem/accounts');
  const deployer = privateKeyToAccount(options.deployerKey ?? ANVIL_ACCOUNTS[0].privateKey);
  const signer = privateKeyToAccount(options.paymasterSignerKey ?? ANVIL_ACCOUNTS[2].privateKey);
  const chainId = Number(await rpc(anvilUrl, 'eth_chainId'));
  const chain = viem.defineChain({
    id: chainId,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvilUrl] } },
  });
  const transport = viem.http(anvilUrl);
  const wallet = viem.createWalletClient({ account: deployer, chain, transport });
  const client = viem.createPublicClient({ chain, transport });
  async function deploy(name, args) {
    const { abi, bytecode } = artifact(name);
    const hash = await wallet.deployContract({ abi, bytecode, args });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== 'success' || !receipt.contractAddress) {
      throw new Error(`deploying ${name} failed`);
    }
    return receipt.contractAddress;
  }
  const entryPoint = await deploy('EntryPoint', []);
  const factory = await deploy('SimpleAccountFactory', [entryPoint]);
  const paymaster = await deploy('VerifyingPaymaster', [entryPoint, signer.address]);
  const depositHash = await wallet.writeContract({
    address: paymaster,
    abi: artifact('VerifyingPaymaster').abi,
    functionName: 'deposit',
    value: BigInt(options.paymasterDeposit ?? 10n ** 19n),
  });
  await client.waitForTransactionReceipt({ hash: depositHash, pollingInterval: 50 });
  return {
    chainId,
    entryPoint: entryPoint.toLowerCase(),
    factory: factory.toLowerCase(),
    paymaster: paymaster.toLowerCase(),
    paymasterSignerKey: options.paymasterSignerKey ?? ANVIL_ACCOUNTS[2].privateKey,
  };
}

/** Alto's CLI script (its package exports no subpaths, so it is found on the module paths). */
function altoEntry() {
  const fs = require('node:fs');
  for (const dir of require.resolve.paths('@pimlico/alto') ?? []) {
    const entry = path.join(dir, '@pimlico/alto/esm/cli/alto.js');
    if (fs.existsSync(entry)) return entry;
  }
  throw new Error('@pimlico/alto is not installed');
}

/** Addresses Alto logs (its simulations deployer, its executors): they need ETH on anvil. */
function altoAddresses(output) {
  return [...new Set(output.match(/0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g) ?? [])];
}

async function fund(rpcUrl, addresses, wei) {
  for (const address of addresses) {
    const code = await rpc(rpcUrl, 'eth_getCode', [address, 'latest']);
    if (code === '0x') {
      await rpc(rpcUrl, 'anvil_setBalance', [address, `0x${wei.toString(16)}`]);
    }
  }
}

/**
 * Alto 0.0.20 against `rpcUrl` (an anvil), bound to 127.0.0.1 through alto-loopback.cjs. Its
 * executor is anvil's second dev account; every address it logs (its own deployer and
 * executors) is funded with anvil_setBalance before and after it is ready.
 */
async function startAlto(options) {
  const { rpcUrl, entryPoint } = options;
  const port = options.port ?? (await freePort());
  const executorKey = options.executorKey ?? ANVIL_ACCOUNTS[1].privateKey;
  const hundredEth = 10n ** 20n;
  await fund(rpcUrl, ['0x145F196d7377530e84a2fF135797c6b59940D6BE'], hundredEth);
  const service = await spawnService({
    name: 'alto',
    command: process.execPath,
    args: [
      '-r',
      path.join(__dirname, 'alto-loopback.cjs'),
      altoEntry(),
      '--entrypoints',
      entryPoint,
      '--executor-private-keys',
      executorKey,
      '--utility-private-key',
      executorKey,
      '--rpc-url',
      rpcUrl,
      '--port',
      String(port),
      '--safe-mode',
      'false',
      '--log-level',
      'info',
      ...(options.args ?? []),
    ],
    readyPort: port,
    timeoutMs: options.timeoutMs ?? 90_000,
  });
  await fund(rpcUrl, altoAddresses(service.output()), hundredEth);
  return { ...service, port, url: `http://${LOOPBACK}:${port}/rpc` };
}

const PAYMASTER_ABI_NAME = 'VerifyingPaymaster';
/** 65 bytes that parse as a signature, for stub data (see the keyring snap's dummy signature). */
const STUB_SIGNATURE = `${'f'.repeat(31)}${'0'.repeat(33)}7${'a'.repeat(63)}1c`;

/**
 * A small ERC-7677 paymaster service (v0.6 operations) for the deployed VerifyingPaymaster:
 * pm_getPaymasterStubData answers the paymaster with a parseable dummy signature,
 * pm_getPaymasterData signs VerifyingPaymaster.getHash(op, validUntil, validAfter) with the
 * verifying signer. It sponsors every operation of `chainId` for `entryPoint`; requests for
 * anything else are refused. Served on 127.0.0.1.
 */
async function startPaymasterService(options) {
  const viem = require('viem');
  const { privateKeyToAccount } = require('viem/accounts');
  const { rpcUrl, entryPoint, paymaster, chainId } = options;
  const signer = privateKeyToAccount(options.signerKey);
  const validitySeconds = options.validitySeconds ?? 3600;
  const { abi } = artifact(PAYMASTER_ABI_NAME);
  const client = viem.createPublicClient({ transport: viem.http(rpcUrl) });
  const requests = [];

  function checkRequest(params) {
    if (!Array.isArray(params) || params.length < 3 || typeof params[0] !== 'object') {
      throw Object.assign(
        new Error('params must be [userOperation, entryPoint, chainId, context]'),
        {
          code: -32602,
        },
      );
    }
    if (String(params[1]).toLowerCase() !== entryPoint.toLowerCase()) {
      throw Object.assign(new Error(`entry point ${params[1]} is not sponsored`), { code: -32602 });
    }
    if (Number(params[2]) !== chainId) {
      throw Object.assign(new Error(`chain ${params[2]} is not sponsored`), { code: -32602 });
    }
    return params[0];
  }

  async function paymasterAndData(op, sign) {
    const now = Math.floor(Date.now() / 1000);
    const validUntil = sign ? now + validitySeconds : 0;
    const validAfter = 0;
    const times = viem
      .encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter])
      .slice(2);
    if (!sign) {
      return `${paymaster}${times}${STUB_SIGNATURE}`;
    }
    const userOp = {
      sender: op.sender,
      nonce: BigInt(op.nonce),
      initCode: op.initCode,
      callData: op.callData,
      callGasLimit: BigInt(op.callGasLimit),
      verificationGasLimit: BigInt(op.verificationGasLimit),
      preVerificationGas: BigInt(op.preVerificationGas),
      maxFeePerGas: BigInt(op.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(op.maxPriorityFeePerGas),
      // VerifyingPaymaster v0.6 hashes the operation's raw calldata up to paymasterAndData,
      // whose head holds the signature's offset: it depends on paymasterAndData's length, so
      // the hash is taken with a placeholder of the final length.
      paymasterAndData: `${paymaster}${times}${'00'.repeat(65)}`,
      signature: '0x',
    };
    const hash = await client.readContract({
      address: paymaster,
      abi,
      functionName: 'getHash',
      args: [userOp, validUntil, validAfter],
    });
    const signature = await signer.signMessage({ message: { raw: hash } });
    return `${paymaster}${times}${signature.slice(2)}`;
  }

  async function answer(body) {
    const { id = null, method, params } = body ?? {};
    try {
      requests.push(method);
      let result;
      if (method === 'pm_getPaymasterStubData') {
        result = { paymasterAndData: await paymasterAndData(checkRequest(params), false) };
      } else if (method === 'pm_getPaymasterData') {
        result = { paymasterAndData: await paymasterAndData(checkRequest(params), true) };
      } else {
        return {
          jsonrpc: '2.0',
          id,
          error: { code: -32601, message: `Method not found: ${method}` },
        };
      }
      return { jsonrpc: '2.0', id, result };
    } catch (error) {
      return {
        jsonrpc: '2.0',
        id,
        error: { code: error.code ?? -32603, message: String(error.shortMessage ?? error.message) },
      };
    }
  }

  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', async () => {
      let reply;
      try {
        const body = JSON.parse(text);
        reply = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
      } catch {
        reply = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
      });
      res.end(JSON.stringify(reply));
    });
  });
  const port = options.port ?? 0;
  await new Promise((resolve) => server.listen(port, LOOPBACK, resolve));
  const bound = server.address().port;
  return {
    port: bound,
    url: `http://${LOOPBACK}:${bound}`,
    /** Methods received so far, in order. */
    requests: () => [...requests],
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * An HTTP JSON-RPC pass-through to `targetUrl` on 127.0.0.1 that records each HTTP request it
 * forwards (the methods in it, a batch as one request), to count a client's round trips.
 */
async function startCountingProxy(targetUrl) {
  const log = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', async () => {
      try {
        const body = JSON.parse(text);
        log.push(Array.isArray(body) ? body.map((call) => call.method) : [body.method]);
      } catch {
        log.push(['(unparsable)']);
      }
      try {
        const upstream = await fetch(targetUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
        });
        res.writeHead(upstream.status, {
          'content-type': 'application/json',
          'access-control-allow-origin': '*',
        });
        res.end(await upstream.text());
      } catch {
        res.writeHead(502);
        res.end();
      }
    });
  });
  await new Promise((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address();
  return {
    port,
    url: `http://${LOOPBACK}:${port}`,
    /** One entry per HTTP request: the JSON-RPC methods it carried. */
    requests: () => log.map((methods) => [...methods]),
    reset: () => log.splice(0, log.length),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

module.exports = {
  rpc,
  startCountingProxy,
  deployAccountAbstraction,
  startAlto,
  startPaymasterService,
  altoAddresses,
};
