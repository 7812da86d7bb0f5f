export declare const LOOPBACK: '127.0.0.1';
export declare const ANVIL_ACCOUNTS: ReadonlyArray<{
  address: `0x${string}`;
  privateKey: `0x${string}`;
}>;

export interface Service {
  name: string;
  pid: number;
  /** The last ~100 KB of the service's stdout and stderr. */
  output(): string;
  /** Signals the whole process group (default SIGTERM) and resolves when it has exited. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
  killNow(): void;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  readyLine?: RegExp;
  readyPort?: number;
  timeoutMs?: number;
}

export interface AnvilService extends Service {
  port: number;
  url: string;
  wsUrl: string;
}

export interface RedisService extends Service {
  port: number;
  url: string;
}

export declare function freePort(): Promise<number>;
export declare function portAnswers(port: number, host?: string): Promise<boolean>;
export declare function spawnService(options: SpawnOptions): Promise<Service>;
export declare function anvilBinary(): string;
export declare function startAnvil(options?: {
  port?: number;
  args?: string[];
  timeoutMs?: number;
}): Promise<AnvilService>;
export declare function startRedis(options?: {
  port?: number;
  binary?: string;
  timeoutMs?: number;
}): Promise<RedisService>;

export interface AccountAbstractionDeployment {
  chainId: number;
  /** Lower-case addresses of EntryPoint v0.6, SimpleAccountFactory and VerifyingPaymaster. */
  entryPoint: `0x${string}`;
  factory: `0x${string}`;
  paymaster: `0x${string}`;
  /** The VerifyingPaymaster's signer (a public anvil dev key). */
  paymasterSignerKey: `0x${string}`;
}

export declare function deployAccountAbstraction(
  anvilUrl: string,
  options?: {
    deployerKey?: `0x${string}`;
    paymasterSignerKey?: `0x${string}`;
    paymasterDeposit?: bigint;
  },
): Promise<AccountAbstractionDeployment>;

export interface AltoService extends Service {
  port: number;
  /** JSON-RPC endpoint (`/rpc`). */
  url: string;
}

export declare function startAlto(options: {
  rpcUrl: string;
  entryPoint: string;
  port?: number;
  executorKey?: `0x${string}`;
  args?: string[];
  timeoutMs?: number;
}): Promise<AltoService>;

export declare function altoAddresses(output: string): string[];

export interface PaymasterService {
  port: number;
  url: string;
  /** JSON-RPC methods received so far, in order. */
  requests(): string[];
  stop(): Promise<void>;
}

export declare function startPaymasterService(options: {
  rpcUrl: string;
  entryPoint: string;
  paymaster: string;
  chainId: number;
  signerKey: `0x${string}`;
  port?: number;
  validitySeconds?: number;
}): Promise<PaymasterService>;

export interface CountingProxy {
  port: number;
  url: string;
  /** One entry per HTTP request forwarded: the JSON-RPC methods it carried (a batch: several). */
  requests(): string[][];
  reset(): void;
  stop(): Promise<void>;
}

export declare function startCountingProxy(targetUrl: string): Promise<CountingProxy>;

/**
 * Builds the snap in `snapRoot` with the build variables `env` into `dir` (once per source
 * change; parallel callers wait on a lock) and returns `dir`, ready for snaps-simulation.
 */
export declare function ensureSnapBuild(options: {
  snapRoot: string;
  dir: string;
  env: Record<string, string>;
}): string;

/** One JSON-RPC call over HTTP; a JSON-RPC error is thrown (with `code` and `data`). */
export declare function rpc<T = unknown>(
  url: string,
  method: string,
  params?: unknown[],
): Promise<T>;
