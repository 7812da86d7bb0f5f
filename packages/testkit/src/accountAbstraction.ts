/**
 * The ERC-4337 v0.6 side of the local EVM stack: the @account-abstraction/contracts 0.6.0
 * contracts deployed on an anvil, Pimlico's Alto bundler in front of it (on loopback), and a
 * small ERC-7677 paymaster service that signs for the deployed VerifyingPaymaster.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import type { Abi, Hex } from 'viem';

import { startAnvil, type AnvilService } from './anvil';
import { ANVIL_ACCOUNTS, LOOPBACK } from './constants';
import { rpc } from './jsonRpc';
import { freePort, spawnService, type Service } from './processes';
import { serveHttp } from './stubServers';

type Address = `0x${string}`;

// viem is loaded on first use: most users of the testkit never deploy these contracts.
const viem = () => require('viem') as typeof import('viem');
const privateKeyToAccount: typeof import('viem/accounts').privateKeyToAccount = (key, options) =>
  (require('viem/accounts') as typeof import('viem/accounts')).privateKeyToAccount(key, options);

function artifact(name: string): { abi: Abi; bytecode: Hex } {
  return require(`@account-abstraction/contracts/artifacts/${name}.json`);
}

export interface AccountAbstractionDeployment {
  chainId: number;
  /** Lower-case addresses of EntryPoint v0.6, SimpleAccountFactory and VerifyingPaymaster. */
  entryPoint: Address;
  factory: Address;
  paymaster: Address;
  /** The VerifyingPaymaster's signer (a public anvil dev key). */
  paymasterSignerKey: Hex;
}

/**
 * Deploys EntryPoint, SimpleAccountFactory and VerifyingPaymaster (its verifying signer is
 * `paymasterSignerKey`, default anvil's third dev account) from anvil's first dev account, and
 * deposits `paymasterDeposit` wei (default 10 ETH) for the paymaster at the EntryPoint.
 */
export async function deployAccountAbstraction(
  anvilUrl: string,
  options: { deployerKey?: Hex; paymasterSignerKey?: Hex; paymasterDeposit?: bigint } = {},
): Promise<AccountAbstractionDeployment> {
  const paymasterSignerKey = options.paymasterSignerKey ?? ANVIL_ACCOUNTS[2].privateKey;
  const deployer = privateKeyToAccount(options.deployerKey ?? ANVIL_ACCOUNTS[0].privateKey);
  const signer = privateKeyToAccount(paymasterSignerKey);
  const chainId = Number(await rpc(anvilUrl, 'eth_chainId'));
  const { createPublicClient, createWalletClient, defineChain, http: viemHttp } = viem();
  const chain = defineChain({
    id: chainId,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvilUrl] } },
  });
  const transport = viemHttp(anvilUrl);
  const wallet = createWalletClient({ account: deployer, chain, transport });
  const client = createPublicClient({ chain, transport });
  async function deploy(name: string, args: unknown[]): Promise<Address> {
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
    value: options.paymasterDeposit ?? 10n ** 19n,
  });
  await client.waitForTransactionReceipt({ hash: depositHash, pollingInterval: 50 });
  return {
    chainId,
    entryPoint: entryPoint.toLowerCase() as Address,
    factory: factory.toLowerCase() as Address,
    paymaster: paymaster.toLowerCase() as Address,
    paymasterSignerKey,
  };
}

/** Alto's CLI script (its package exports no subpaths, so it is found on the module paths). */
function altoEntry(): string {
  for (const dir of require.resolve.paths('@pimlico/alto') ?? []) {
    const entry = path.join(dir, '@pimlico/alto/esm/cli/alto.js');
    if (existsSync(entry)) return entry;
  }
  throw new Error('@pimlico/alto is not installed (npm install at the repository root)');
}

/** Addresses Alto logs (its simulations deployer, its executors): they need ETH on anvil. */
export function altoAddresses(output: string): string[] {
  return [...new Set(output.match(/0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g) ?? [])];
}

async function fund(rpcUrl: string, addresses: string[], wei: bigint): Promise<void> {
  for (const address of addresses) {
    const code = await rpc<string>(rpcUrl, 'eth_getCode', [address, 'latest']);
    if (code === '0x') {
      await rpc(rpcUrl, 'anvil_setBalance', [address, `0x${wei.toString(16)}`]);
    }
  }
}

export interface AltoService extends Service {
  port: number;
  /** JSON-RPC endpoint (`/rpc`). */
  url: string;
}

/**
 * Alto 0.0.20 against `rpcUrl` (an anvil), bound to 127.0.0.1 through alto-loopback.cjs. Its
 * executor is anvil's second dev account; every address it logs (its own deployer and
 * executors) is funded with anvil_setBalance before and after it is ready.
 */
export async function startAlto(options: {
  rpcUrl: string;
  entryPoint: string;
  port?: number;
  executorKey?: Hex;
  args?: string[];
  timeoutMs?: number;
}): Promise<AltoService> {
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
      path.join(__dirname, '..', 'alto-loopback.cjs'),
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

/** 65 bytes that parse as a signature, for stub data (see the keyring snap's dummy signature). */
const STUB_SIGNATURE = `${'f'.repeat(31)}${'0'.repeat(33)}7${'a'.repeat(63)}1c`;

export interface PaymasterService {
  port: number;
  url: string;
  /** JSON-RPC methods received so far, in order. */
  requests(): string[];
  stop(): Promise<void>;
}

type JsonRpcBody = { id?: unknown; method?: string; params?: unknown };
type RpcFailure = Error & { code?: number; shortMessage?: string };

function invalidParams(message: string): RpcFailure {
  return Object.assign(new Error(message), { code: -32602 });
}

/** Serves `answer` as JSON-RPC over HTTP on 127.0.0.1 (batches too), CORS open. */
function serveJsonRpc(port: number, answer: (body: JsonRpcBody) => Promise<unknown>) {
  return serveHttp(
    async (_request, response, text) => {
      let reply: unknown;
      try {
        const body = JSON.parse(text) as JsonRpcBody | JsonRpcBody[];
        reply = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
      } catch {
        reply = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
      }
      response.writeHead(200, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
      });
      response.end(JSON.stringify(reply));
    },
    { port },
  );
}

/**
 * A small ERC-7677 paymaster service (v0.6 operations) for the deployed VerifyingPaymaster:
 * pm_getPaymasterStubData answers the paymaster with a parseable dummy signature,
 * pm_getPaymasterData signs VerifyingPaymaster.getHash(op, validUntil, validAfter) with the
 * verifying signer. It sponsors every operation of `chainId` for `entryPoint`; requests for
 * anything else are refused. Served on 127.0.0.1.
 */
export async function startPaymasterService(options: {
  rpcUrl: string;
  entryPoint: string;
  paymaster: string;
  chainId: number;
  signerKey: Hex;
  port?: number;
  validitySeconds?: number;
}): Promise<PaymasterService> {
  const { rpcUrl, entryPoint, chainId } = options;
  const paymaster = options.paymaster as Address;
  const signer = privateKeyToAccount(options.signerKey);
  const validitySeconds = options.validitySeconds ?? 3600;
  const { abi } = artifact('VerifyingPaymaster');
  const { createPublicClient, encodeAbiParameters, http: viemHttp } = viem();
  const client = createPublicClient({ transport: viemHttp(rpcUrl) });
  const requests: string[] = [];

  function checkRequest(params: unknown): Record<string, string> {
    if (!Array.isArray(params) || params.length < 3 || typeof params[0] !== 'object') {
      throw invalidParams('params must be [userOperation, entryPoint, chainId, context]');
    }
    if (String(params[1]).toLowerCase() !== entryPoint.toLowerCase()) {
      throw invalidParams(`entry point ${params[1]} is not sponsored`);
    }
    if (Number(params[2]) !== chainId) {
      throw invalidParams(`chain ${params[2]} is not sponsored`);
    }
    return params[0] as Record<string, string>;
  }

  async function paymasterAndData(op: Record<string, string>, sign: boolean): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const validUntil = sign ? now + validitySeconds : 0;
    const validAfter = 0;
    const times = encodeAbiParameters(
      [{ type: 'uint48' }, { type: 'uint48' }],
      [validUntil, validAfter],
    ).slice(2);
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
    const hash = (await client.readContract({
      address: paymaster,
      abi,
      functionName: 'getHash',
      args: [userOp, validUntil, validAfter],
    })) as Hex;
    const signature = await signer.signMessage({ message: { raw: hash } });
    return `${paymaster}${times}${signature.slice(2)}`;
  }

  async function answer(body: JsonRpcBody) {
    const { id = null, method, params } = body ?? {};
    try {
      requests.push(String(method));
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
      const failure = error as RpcFailure;
      return {
        jsonrpc: '2.0',
        id,
        error: {
          code: failure.code ?? -32603,
          message: String(failure.shortMessage ?? failure.message),
        },
      };
    }
  }

  const server = await serveJsonRpc(options.port ?? 0, answer);
  return {
    port: server.port,
    url: server.url,
    requests: () => [...requests],
    stop: server.close,
  };
}

/** What keyring_setChainConfig takes to point the keyring snap at a stack. */
export interface KeyringChainConfig {
  chainId: string;
  rpcUrl: string;
  bundlerUrl: string;
  entryPoint: string;
  factory: string;
  paymasterUrl?: string | null;
}

export interface AccountAbstractionStack {
  /** The anvil this function started (absent when `anvilUrl` was given). */
  anvil?: AnvilService;
  anvilUrl: string;
  contracts: AccountAbstractionDeployment;
  alto: AltoService;
  paymaster?: PaymasterService;
  /** keyring_setChainConfig params for this stack. */
  chainConfig: KeyringChainConfig;
  /** The keyring snap's build variables (KEYRING_*) for this stack. */
  keyringSnapEnv: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The whole ERC-4337 stack on loopback: an anvil (or the one at `anvilUrl`), the v0.6 contracts,
 * Alto and (unless `paymaster: false`) the ERC-7677 paymaster service. On failure whatever was
 * started is stopped again.
 */
export async function startAccountAbstractionStack(
  options: {
    anvilUrl?: string;
    bundlerPort?: number;
    paymasterPort?: number;
    paymaster?: boolean;
  } = {},
): Promise<AccountAbstractionStack> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
    stops.length = 0;
  };
  try {
    const anvil = options.anvilUrl ? undefined : await startAnvil();
    if (anvil) stops.push(() => anvil.stop());
    const anvilUrl = options.anvilUrl ?? (anvil as AnvilService).url;
    const contracts = await deployAccountAbstraction(anvilUrl);
    const paymaster =
      options.paymaster === false
        ? undefined
        : await startPaymasterService({
            rpcUrl: anvilUrl,
            entryPoint: contracts.entryPoint,
            paymaster: contracts.paymaster,
            chainId: contracts.chainId,
            signerKey: contracts.paymasterSignerKey,
            port: options.paymasterPort,
          });
    if (paymaster) stops.push(() => paymaster.stop());
    const alto = await startAlto({
      rpcUrl: anvilUrl,
      entryPoint: contracts.entryPoint,
      port: options.bundlerPort,
    });
    stops.push(() => alto.stop());
    const chainConfig: KeyringChainConfig = {
      chainId: String(contracts.chainId),
      rpcUrl: anvilUrl,
      bundlerUrl: alto.url,
      entryPoint: contracts.entryPoint,
      factory: contracts.factory,
      ...(paymaster ? { paymasterUrl: paymaster.url } : {}),
    };
    return {
      anvil,
      anvilUrl,
      contracts,
      alto,
      paymaster,
      chainConfig,
      keyringSnapEnv: {
        KEYRING_CHAIN_ID: chainConfig.chainId,
        KEYRING_RPC_URL: anvilUrl,
        KEYRING_BUNDLER_URL: alto.url,
        KEYRING_ENTRY_POINT: contracts.entryPoint,
        KEYRING_FACTORY: contracts.factory,
        KEYRING_PAYMASTER_URL: paymaster?.url ?? '',
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
