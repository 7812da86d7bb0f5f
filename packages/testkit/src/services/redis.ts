import { LOOPBACK } from '../constants';
import { freePort, spawnService, type Service } from '../processes';

export interface RedisService extends Service {
  port: number;
  url: string;
}

/**
 * A throwaway redis-server on 127.0.0.1 without persistence (Debian package redis-server). When
 * it is not installed this rejects at once, naming the package. With `persistDir` it keeps an
 * append-only file there, so a restart on the same port (and folder) finds its data again. That
 * file is synced on every write unless `appendfsync` says otherwise: with everysec, Redis answers
 * writes it has not yet written while an fsync is in progress, and a kill -9 loses them.
 */
export async function startRedis(
  options: {
    port?: number;
    binary?: string;
    timeoutMs?: number;
    persistDir?: string;
    appendfsync?: 'always' | 'everysec' | 'no';
  } = {},
): Promise<RedisService> {
  const port = options.port ?? (await freePort());
  const persistence = options.persistDir
    ? ['--dir', options.persistDir, '--save', '', '--appendonly', 'yes']
    : ['--save', '', '--appendonly', 'no'];
  if (options.persistDir) persistence.push('--appendfsync', options.appendfsync ?? 'always');
  const service = await spawnService({
    name: 'redis-server',
    command: options.binary ?? 'redis-server',
    args: ['--port', String(port), '--bind', LOOPBACK, ...persistence],
    readyLine: /Ready to accept connections/,
    timeoutMs: options.timeoutMs ?? 30_000,
  });
  return { ...service, port, url: `redis://${LOOPBACK}:${port}` };
}
