import { LOOPBACK } from './constants';
import { freePort, spawnService, type Service } from './processes';

export interface RedisService extends Service {
  port: number;
  url: string;
}

/**
 * A throwaway redis-server on 127.0.0.1 without persistence (Debian package redis-server). When
 * it is not installed this rejects at once, naming the package.
 */
export async function startRedis(
  options: { port?: number; binary?: string; timeoutMs?: number } = {},
): Promise<RedisService> {
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
