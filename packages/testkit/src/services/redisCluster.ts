/**
 * A real Redis Cluster on 127.0.0.1: `masters` redis-server processes with
 * `--cluster-enabled yes` and append-only files in their own folders, joined as
 * `redis-cli --cluster create` joins them (no replicas; slots, config epochs and MEET sent over
 * sockets), ready once every node reports `cluster_state:ok`.
 * A node can be restarted on its port and folder (it rejoins with its slots and its data).
 * redis-cli comes with Debian's redis-server package (its dependency redis-tools).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { LOOPBACK } from '../constants';
import { freePort, runCommand, spawnService, type Service } from '../processes';

export interface RedisClusterNode {
  port: number;
  url: string;
  /** Its folder: nodes.conf and the append-only file. */
  dir: string;
  service: Service;
}

export interface RedisClusterService {
  nodes: RedisClusterNode[];
  /** The nodes' URLs (seed nodes for a cluster client). */
  urls: string[];
  /**
   * Stops node `index` (SIGKILL unless told), waits `downMs`, starts it again on its port and
   * folder, and resolves once every node reports the cluster ok.
   */
  restart(index: number, options?: { signal?: NodeJS.Signals; downMs?: number }): Promise<void>;
  /** Runs `redis-cli` against node `index` (e.g. ['cluster', 'info']); resolves with its output. */
  cli(index: number, args: string[]): Promise<string>;
  /**
   * Moves `slots` hash slots (and their keys) from master `from` to master `to` with
   * `redis-cli --cluster reshard`: clients meet ASK while a slot moves and MOVED after.
   */
  reshard(from: number, to: number, slots: number): Promise<void>;
  stop(): Promise<void>;
}

interface NodeSpec {
  port: number;
  busPort: number;
  dir: string;
}

function startNode(
  spec: NodeSpec,
  nodeTimeoutMs: number,
  binary: string,
  persist: boolean,
): Promise<Service> {
  return spawnService({
    name: `redis-cluster-${spec.port}`,
    command: binary,
    args: [
      '--port',
      String(spec.port),
      '--bind',
      LOOPBACK,
      // The bus port is chosen too: port + 10000 may be past 65535.
      '--cluster-port',
      String(spec.busPort),
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `nodes-${spec.port}.conf`,
      '--cluster-node-timeout',
      String(nodeTimeoutMs),
      '--dir',
      spec.dir,
      '--appendonly',
      persist ? 'yes' : 'no',
      // Synced on every write: with everysec a kill -9 can lose writes Redis already answered.
      '--appendfsync',
      'always',
      '--save',
      '',
    ],
    readyLine: /Ready to accept connections/,
    timeoutMs: 30_000,
  });
}

/**
 * One Redis command on 127.0.0.1:`port` over its own connection, answered with the reply's text
 * (a simple or bulk string; an error reply rejects). The readiness polls use it rather than a
 * redis-cli process per node and poll.
 */
export function redisCommand(port: number, args: string[], timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: LOOPBACK, port });
    let reply = Buffer.alloc(0);
    const done = (error: Error | undefined, text = '') => {
      socket.destroy();
      if (error) reject(error);
      else resolve(text);
    };
    socket.setTimeout(timeoutMs, () =>
      done(new Error(`redis :${port}: no answer in ${timeoutMs} ms`)),
    );
    socket.once('error', (error) => done(error));
    socket.on('data', (chunk) => {
      reply = Buffer.concat([reply, chunk]);
      const lineEnd = reply.indexOf('\r\n');
      if (lineEnd < 0) return;
      const head = reply.subarray(1, lineEnd).toString();
      if (reply[0] === 0x2b)
        done(undefined, head); // +simple
      else if (reply[0] === 0x2d)
        done(new Error(`redis :${port}: ${head}`)); // -error
      else if (reply[0] === 0x24) {
        // $length, then the bulk string and its CRLF.
        const length = Number(head);
        if (length < 0) done(undefined, '');
        else if (reply.length >= lineEnd + 2 + length + 2) {
          done(undefined, reply.subarray(lineEnd + 2, lineEnd + 2 + length).toString());
        }
      } else done(new Error(`redis :${port}: unexpected reply ${head}`));
    });
    socket.once('connect', () => {
      socket.write(
        `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`,
      );
    });
  });
}

export async function startRedisCluster(
  options: {
    masters?: number;
    nodeTimeoutMs?: number;
    /** Append-only files (default true; a restarted node then keeps its data). */
    persist?: boolean;
    binary?: string;
    cliBinary?: string;
  } = {},
): Promise<RedisClusterService> {
  const masters = options.masters ?? 3;
  const persist = options.persist ?? true;
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 5000;
  const binary = options.binary ?? 'redis-server';
  const cliBinary = options.cliBinary ?? 'redis-cli';
  const specs: NodeSpec[] = [];
  for (let i = 0; i < masters; i++) {
    specs.push({
      port: await freePort(),
      busPort: await freePort(),
      dir: mkdtempSync(path.join(tmpdir(), 'redis-cluster-')),
    });
  }
  const nodes: RedisClusterNode[] = [];
  const stopAll = () => Promise.all(nodes.map((node) => node.service.stop()));
  const cli = (index: number, args: string[]) =>
    runCommand(cliBinary, ['-h', LOOPBACK, '-p', String(nodes[index].port), ...args], {
      timeoutMs: 30_000,
    });
  const allOk = async (timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await Promise.all(
        nodes.map((node) =>
          redisCommand(node.port, ['CLUSTER', 'INFO']).catch((error: Error) => error.message),
        ),
      );
      if (states.every((info) => /cluster_state:ok/.test(info))) return;
      if (Date.now() > deadline) {
        throw new Error(`the Redis Cluster is not ok after ${timeoutMs} ms:\n${states.join('\n')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  try {
    for (const spec of specs) {
      const service = await startNode(spec, nodeTimeoutMs, binary, persist);
      nodes.push({
        port: spec.port,
        url: `redis://${LOOPBACK}:${spec.port}`,
        dir: spec.dir,
        service,
      });
    }
    // What `redis-cli --cluster create` does, over sockets and without its one-second polls:
    // each master takes its share of the slots and its own config epoch, then meets the first.
    const share = Math.ceil(16384 / masters);
    await Promise.all(
      nodes.map(async (node, i) => {
        const last = Math.min(16383, (i + 1) * share - 1);
        await redisCommand(node.port, [
          'CLUSTER',
          'ADDSLOTSRANGE',
          String(i * share),
          String(last),
        ]);
        await redisCommand(node.port, ['CLUSTER', 'SET-CONFIG-EPOCH', String(i + 1)]);
      }),
    );
    for (const [i, node] of nodes.entries()) {
      if (i === 0) continue;
      await redisCommand(nodes[0].port, [
        'CLUSTER',
        'MEET',
        LOOPBACK,
        String(node.port),
        String(specs[i].busPort),
      ]);
    }
    await allOk();
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    nodes,
    urls: nodes.map((node) => node.url),
    cli,
    async reshard(from, to, slots) {
      const id = async (index: number) => (await cli(index, ['cluster', 'myid'])).trim();
      await runCommand(
        cliBinary,
        [
          '--cluster',
          'reshard',
          `${LOOPBACK}:${nodes[from].port}`,
          '--cluster-from',
          await id(from),
          '--cluster-to',
          await id(to),
          '--cluster-slots',
          String(slots),
          '--cluster-yes',
        ],
        { timeoutMs: 120_000 },
      );
      await allOk();
    },
    async restart(index, { signal = 'SIGKILL', downMs = 0 } = {}) {
      const node = nodes[index];
      await node.service.stop(signal);
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      node.service = await startNode(specs[index], nodeTimeoutMs, binary, persist);
      await allOk();
    },
    stop: async () => {
      await stopAll();
      for (const spec of specs) rmSync(spec.dir, { recursive: true, force: true });
    },
  };
}
