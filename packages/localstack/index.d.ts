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
