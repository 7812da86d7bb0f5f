#!/usr/bin/env node
/**
 * l2-gateway serve --config FILE [--host H] [--port P]
 * l2-gateway keys create --config FILE --plan free|developer|team [--daily-credits N]
 *   [--credits-per-second N] [--failover] [--require-secret | --optional-secret]
 *   [--allow-origin O]... [--allow-user-agent U]... [--allow-method M]... [--allow-contract A]...
 *   [--env]
 * l2-gateway keys allow [-|KEY] --config FILE [--reset] [--origin O]... [--user-agent U]...
 *   [--contract A]... [--method M]...
 * l2-gateway keys jwt [-|KEY] --config FILE [--add-public-key NAME FILE.pem]...
 *   [--remove-public-key NAME]... [--require | --no-require]
 * l2-gateway keys show|usage|revoke [-|KEY] --config FILE
 * l2-gateway keys list --config FILE
 *
 * An API key is a secret: every command on one key reads it from stdin (`-`) or from
 * L2_GATEWAY_KEY, so it stays out of `ps` and shell history (a key on the command line works).
 */
import { readFileSync } from 'node:fs';

import { closeOnSignals } from '@l2wallet/jsonrpc';

import { controlsOf, withAllowlists, withJwt } from './auth/controls';
import { KEY_FORMAT, type KeyRecord, newKey, sha256 } from './auth/keys';
import type { KeyRegistry } from './auth/registry';
import { refusedByCause } from './credits/usageReport';
import { isPlan, PLANS } from './auth/plans';
import { loadConfig } from './config';
import { startGateway } from './server';
import { openStores } from './stores/open';

const USAGE = `usage:
  l2-gateway serve --config FILE [--host HOST] [--port PORT]
  l2-gateway keys create --config FILE --plan ${Object.keys(PLANS).join('|')} [--daily-credits N]
      [--credits-per-second N] [--failover] [--require-secret | --optional-secret]
      [--allow-origin ORIGIN]... [--allow-user-agent TEXT]... [--allow-method METHOD]...
      [--allow-contract ADDRESS]... [--env]
  l2-gateway keys allow [-|KEY] --config FILE [--reset] [--origin ORIGIN]...
      [--user-agent TEXT]... [--contract ADDRESS]... [--method METHOD]...
  l2-gateway keys jwt [-|KEY] --config FILE [--add-public-key NAME FILE.pem]...
      [--remove-public-key NAME]... [--require | --no-require]
  l2-gateway keys show|usage|revoke [-|KEY] --config FILE
  l2-gateway keys list --config FILE
The KEY of a command on one key: - reads it from stdin, else L2_GATEWAY_KEY; a KEY argument is
seen by ps and kept in shell history.`;

const FLAGS = new Set([
  'failover',
  'secret',
  'require-secret',
  'optional-secret',
  'env',
  'reset',
  'require',
  'no-require',
]);
/** Options that take two values. */
const PAIRS = new Set(['add-public-key']);
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
    } else if (PAIRS.has(name)) {
      if (i + 2 >= argv.length) usageError(`--${name} needs two values`);
      value = `${argv[++i]}\n${argv[++i]}`;
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
  if (given === '-') key = keyFromText(await readStdin());
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

/**
 * The key in what `keys create` printed: its `key:` (or L2_GATEWAY_KEY=) line, else the first
 * line that is not the secret's.
 */
function keyFromText(text: string): string | undefined {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  for (const line of lines) {
    const labelled = /^(?:key:|L2_GATEWAY_KEY=)\s*(\S+)$/.exec(line);
    if (labelled) return labelled[1];
  }
  return lines.find((line) => !/^(?:secret:|L2_GATEWAY_SECRET=)/.test(line));
}

/** The record of the key given as for usage (stdin, environment or argument), or exit 2. */
async function recordArg(args: Args, registry: KeyRegistry): Promise<KeyRecord> {
  const record = await registry.get(sha256(await keyArg(args)));
  if (!record) usageError('unknown API key');
  return record;
}

/** A key as `keys show` and `keys list` print it: settings and controls, never a secret. */
function shown(r: KeyRecord) {
  return {
    id: r.id,
    plan: r.plan,
    dailyCredits: r.dailyCredits,
    creditsPerSecond: r.creditsPerSecond,
    failover: r.failover,
    ...controlsOf(r),
    createdAt: r.createdAt,
    revokedAt: r.revokedAt,
  };
}

/** Applies a change to a key's record and saves it; a bad change exits 2 with its reason. */
async function change(
  registry: KeyRegistry,
  record: KeyRecord,
  update: (record: KeyRecord) => KeyRecord,
): Promise<void> {
  let next: KeyRecord;
  try {
    next = update(record);
  } catch (error) {
    usageError((error as Error).message);
  }
  await registry.update(next);
  // Running gateways read a key's record again within a second.
  process.stdout.write(`${JSON.stringify(shown(next), null, 2)}\n`);
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
  closeOnSignals({ forceOnSecondSignal: true })(() => running.close());
  // The last net, never relied on: every path answers its own errors. Logged, not fatal.
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(
      `l2-gateway: unhandled rejection (a bug, please report): ${(reason as Error)?.stack ?? String(reason)}\n`,
    );
  });
}

async function keys(args: Args): Promise<void> {
  const action = args.positional[1];
  const { keys: registry, ledger, refusals, close } = await openStores(configFrom(args).ledger);
  try {
    if (action === 'create') {
      const plan = one(args, 'plan') ?? 'free';
      if (!isPlan(plan)) usageError(`--plan must be one of ${Object.keys(PLANS).join(', ')}`);
      let created;
      try {
        created = newKey({
          plan,
          dailyCredits: positiveInt(args, 'daily-credits'),
          creditsPerSecond: positiveInt(args, 'credits-per-second'),
          failover: args.options.has('failover') ? true : undefined,
          // --secret (as before) and --require-secret: every request must give it;
          // --optional-secret: the secret only lifts the allowlists (server-side use).
          secret: ['secret', 'require-secret', 'optional-secret'].some((f) => args.options.has(f)),
          requireSecret: args.options.has('optional-secret') ? false : undefined,
          allow: {
            origins: many(args, 'allow-origin'),
            userAgents: many(args, 'allow-user-agent'),
            methods: many(args, 'allow-method'),
            contracts: many(args, 'allow-contract'),
          },
        });
      } catch (error) {
        usageError((error as Error).message);
      }
      await registry.add(created.record);
      if (args.options.has('env')) {
        // As environment assignments, for an env file or `export` (the other commands read it).
        if (created.secret) process.stdout.write(`L2_GATEWAY_SECRET=${created.secret}\n`);
        process.stdout.write(`${KEY_VARIABLE}=${created.key}\n`);
      } else if (created.secret) {
        // Each on its own line, labelled (`keys usage -` reads the key's line).
        process.stdout.write(`secret: ${created.secret}\nkey: ${created.key}\n`);
      } else {
        // The key alone (scripts read it, or pipe it into `keys usage -`).
        process.stdout.write(`${created.key}\n`);
      }
    } else if (action === 'list') {
      // Never the key or the secret: only the id (a prefix of the key's SHA-256) and settings.
      const list = (await registry.list()).map(shown);
      process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    } else if (action === 'show') {
      process.stdout.write(`${JSON.stringify(shown(await recordArg(args, registry)), null, 2)}\n`);
    } else if (action === 'allow') {
      const record = await recordArg(args, registry);
      await change(registry, record, (r) =>
        withAllowlists(
          r,
          {
            origins: many(args, 'origin'),
            userAgents: many(args, 'user-agent'),
            contracts: many(args, 'contract'),
            methods: many(args, 'method'),
          },
          args.options.has('reset'),
        ),
      );
    } else if (action === 'jwt') {
      const record = await recordArg(args, registry);
      const add = many(args, 'add-public-key').map((pair) => {
        const [name, file] = pair.split('\n');
        try {
          return { name, pem: readFileSync(file, 'utf8') };
        } catch (error) {
          usageError(`cannot read ${file} (${(error as Error).message})`);
        }
      });
      const require = args.options.has('require')
        ? true
        : args.options.has('no-require')
          ? false
          : undefined;
      await change(registry, record, (r) =>
        withJwt(r, { add, remove: many(args, 'remove-public-key'), require }),
      );
    } else if (action === 'usage') {
      const record = await recordArg(args, registry);
      const now = Date.now();
      const usage = await ledger.usage(record.hash, now);
      const refused = refusedByCause(await refusals.counts(record.hash, now));
      process.stdout.write(
        `${JSON.stringify({ total: usage.total, limit: record.dailyCredits, methods: usage.methods, refused })}\n`,
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
