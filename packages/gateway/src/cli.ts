#!/usr/bin/env node
/**
 * l2-gateway serve --config FILE [--host H] [--port P]
 * l2-gateway keys create --config FILE --plan free|developer|team [--daily-credits N]
 *   [--credits-per-second N] [--failover] [--secret] [--allow-origin O]... [--allow-method M]...
 *   [--allow-contract A]... [--env]
 * l2-gateway keys list --config FILE
 * l2-gateway keys usage [-|KEY] --config FILE
 * l2-gateway keys revoke [-|KEY] --config FILE
 *
 * An API key is a secret: usage and revoke read it from stdin (`-`) or from L2_GATEWAY_KEY, so
 * it stays out of `ps` and shell history (a key on the command line still works).
 */
import { KEY_FORMAT, newKey, sha256 } from './auth/keys';
import { isPlan, PLANS } from './auth/plans';
import { loadConfig } from './config';
import { startGateway } from './server';
import { openStores } from './stores/open';

const USAGE = `usage:
  l2-gateway serve --config FILE [--host HOST] [--port PORT]
  l2-gateway keys create --config FILE --plan ${Object.keys(PLANS).join('|')} [--daily-credits N]
      [--credits-per-second N] [--failover] [--secret]
      [--allow-origin ORIGIN]... [--allow-method METHOD]... [--allow-contract ADDRESS]... [--env]
  l2-gateway keys list --config FILE
  l2-gateway keys usage [-|KEY] --config FILE
  l2-gateway keys revoke [-|KEY] --config FILE
The key of usage and revoke: - reads it from stdin, else L2_GATEWAY_KEY; a KEY argument is seen
by ps and kept in shell history.`;

const FLAGS = new Set(['failover', 'secret', 'env']);
const KEY_VARIABLE = 'L2_GATEWAY_KEY';

interface Args {
  positional: string[];
  options: Map<string, string[]>;
}

function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    let name = arg.slice(2);
    let value: string;
    const eq = name.indexOf('=');
    if (eq !== -1) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    } else if (FLAGS.has(name)) {
      value = 'true';
    } else {
      if (i + 1 >= argv.length) usageError(`--${name} needs a value`);
      value = argv[++i];
    }
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  return { positional, options };
}

function usageError(message: string): never {
  process.stderr.write(`l2-gateway: ${message}\n${USAGE}\n`);
  process.exit(2);
}

const one = (args: Args, name: string) => args.options.get(name)?.at(-1);
const many = (args: Args, name: string) => args.options.get(name) ?? [];

function positiveInt(args: Args, name: string): number | undefined {
  const raw = one(args, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) usageError(`--${name} must be a positive integer`);
  return n;
}

function configFrom(args: Args) {
  const file = one(args, 'config');
  if (!file) usageError('--config FILE is required');
  return loadConfig(file);
}

/** All of stdin as text. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The API key of usage and revoke: `-` reads it from stdin (its first line), no argument takes
 * L2_GATEWAY_KEY, and a key given as the argument is taken as it is.
 */
async function keyArg(args: Args): Promise<string> {
  const given = args.positional[2];
  let key: string | undefined;
  if (given === '-')
    key = (await readStdin())
      .split('\n')
      .find((line) => line.trim())
      ?.trim();
  else key = given ?? process.env[KEY_VARIABLE]?.trim();
  if (!key) {
    usageError(
      `the API key is required: pass - and write it to stdin, or set ${KEY_VARIABLE} ` +
        '(a key on the command line is seen by ps and kept in shell history)',
    );
  }
  if (!KEY_FORMAT.test(key)) usageError('an API key is 32 lowercase hex characters');
  return key;
}

async function serve(args: Args): Promise<void> {
  const config = configFrom(args);
  const host = one(args, 'host');
  const port = one(args, 'port');
  if (host) config.listen.host = host;
  if (port !== undefined) config.listen.port = Number(port);
  const running = await startGateway(config);
  const ledger =
    'redisCluster' in config.ledger
      ? 'redis cluster'
      : 'redis' in config.ledger
        ? 'redis'
        : 'sqlite';
  process.stdout.write(
    `l2-gateway listening on ${running.url} (ledger: ${ledger}; chains: ${config.chains
      .map((c) => c.name)
      .join(', ')})\n`,
  );
  const stop = () => {
    void running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // The last net, never relied on: every path answers its own errors. Logged, not fatal.
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(
      `l2-gateway: unhandled rejection (a bug, please report): ${(reason as Error)?.stack ?? String(reason)}\n`,
    );
  });
}

async function keys(args: Args): Promise<void> {
  const action = args.positional[1];
  const { keys: registry, ledger, close } = await openStores(configFrom(args).ledger);
  try {
    if (action === 'create') {
      const plan = one(args, 'plan') ?? 'free';
      if (!isPlan(plan)) usageError(`--plan must be one of ${Object.keys(PLANS).join(', ')}`);
      const created = newKey({
        plan,
        dailyCredits: positiveInt(args, 'daily-credits'),
        creditsPerSecond: positiveInt(args, 'credits-per-second'),
        failover: args.options.has('failover') ? true : undefined,
        secret: args.options.has('secret'),
        allow: {
          origins: many(args, 'allow-origin'),
          methods: many(args, 'allow-method'),
          contracts: many(args, 'allow-contract'),
        },
      });
      await registry.add(created.record);
      if (args.options.has('env')) {
        // As environment assignments, for an env file or `export` (the other commands read it).
        if (created.secret) process.stdout.write(`L2_GATEWAY_SECRET=${created.secret}\n`);
        process.stdout.write(`${KEY_VARIABLE}=${created.key}\n`);
      } else {
        // The key alone on the last line (scripts read it, or pipe it into `keys usage -`); the
        // secret on the line before.
        if (created.secret) process.stdout.write(`${created.secret}\n`);
        process.stdout.write(`${created.key}\n`);
      }
    } else if (action === 'list') {
      // Never the key or the secret: only the id (a prefix of the key's SHA-256) and settings.
      const list = (await registry.list()).map((r) => ({
        id: r.id,
        plan: r.plan,
        dailyCredits: r.dailyCredits,
        creditsPerSecond: r.creditsPerSecond,
        failover: r.failover,
        secret: r.secretHash !== null,
        allow: r.allow,
        createdAt: r.createdAt,
        revokedAt: r.revokedAt,
      }));
      process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    } else if (action === 'usage') {
      const hash = sha256(await keyArg(args));
      const record = await registry.get(hash);
      if (!record) usageError('unknown API key');
      const usage = await ledger.usage(hash, Date.now());
      process.stdout.write(
        `${JSON.stringify({ total: usage.total, limit: record.dailyCredits, methods: usage.methods })}\n`,
      );
    } else if (action === 'revoke') {
      if (!(await registry.revoke(sha256(await keyArg(args))))) usageError('unknown API key');
      process.stdout.write('revoked\n');
    } else {
      usageError(`unknown keys command ${action ?? ''}`);
    }
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const command = args.positional[0];
  if (command === 'serve') return serve(args);
  if (command === 'keys') return keys(args);
  usageError(command ? `unknown command ${command}` : 'a command is required');
}

main().catch((error: Error) => {
  process.stderr.write(`l2-gateway: ${error.message}\n`);
  process.exit(1);
});
