import { LOOPBACK } from '../constants';
import { freePort, spawnService, type Service } from '../processes';

export interface RedisService extends Service {
  port: number;
  url: string;
}

/**
 * A throwaway redis-server on 127.0.0.1 without persistence (Debian package redis-server). When
 * it is not installed this rejects at once, naming the package. With `persistDir` it keeps an
 * append-only file there, so a restart on the same port (and folder) finds its data again.
 */
export async function startRedis(
  options: { port?: number; binary?: string; timeoutMs?: number; persistDir?: string } = {},
): Promise<RedisService> {
  const port = options.port ?? (await freePort());
  const persistence = options.persistDir
    ? ['--dir', options.persistDir, '--save', '', '--appendonly', 'yes']
    : ['--save', '', '--appendonly', 'no'];
  const service = await spawnService({
    name: 'redis-server',
    command: options.binary ?? 'redis-server',
    args: ['--port', String(port), '--bind', LOOPBACK, ...persistence],
    readyLine: /Ready to accept connections/,
    timeoutMs: options.timeoutMs ?? 30_000,
  });
  return { ...service, port, url: `redis://${LOOPBACK}:${port}` };
}
