import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { newestMtime, runCommand, spawnService, type Service } from '@l2wallet/testkit';
import { parseArgs } from '../src/cli';
import { rpc } from './helpers';

const packageDir = join(__dirname, '..');
const modified = (file: string) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;

/**
 * Whether dist/ is the package's build (`npm run build`: tsc -b tsconfig.build.json) of the
 * current sources: npm test makes it before jest (the testkit's build references this config),
 * and tsc -b stamps the config's tsbuildinfo whenever it builds or finds the build up to date.
 */
function distIsFresh(): boolean {
  const built = modified(join(packageDir, 'tsconfig.build.tsbuildinfo'));
  const sources = Math.max(
    newestMtime(join(packageDir, 'src')),
    modified(join(packageDir, 'tsconfig.build.json')),
  );
  return existsSync(join(packageDir, 'dist/cli.js')) && built >= sources;
}

// dist/ as built when it is fresh. Otherwise the package's own build config builds it into an
// ignored folder rather than dist/: other packages' tests may be running dist/ at the same time.
let buildDir = join(packageDir, 'dist');

/** The built CLI as a process, ready once it prints the URL it listens on. */
async function startCli(args: string[]): Promise<{ cli: Service; url: string }> {
  const cli = await spawnService({
    name: 'l2-devnet',
    command: process.execPath,
    args: [join(buildDir, 'cli.js'), ...args],
    readyLine: /listening on http:\/\/\S+\s/,
    timeoutMs: 20_000,
  });
  return { cli, url: (/listening on (http:\/\/\S+)/.exec(cli.output()) as RegExpExecArray)[1] };
}

describe('l2-devnet CLI', () => {
  beforeAll(async () => {
    // The CLI ships as the built cli.js (the package's bin): built as `npm run build` does.
    if (distIsFresh()) return;
    buildDir = join(packageDir, '.cache/test-build');
    await runCommand(process.execPath, [
      require.resolve('typescript/bin/tsc'),
      '-p',
      join(packageDir, 'tsconfig.build.json'),
      '--outDir',
      buildDir,
    ]);
  });

  test('the built public entry point loads in jest (CommonJS all the way down) and serves', async () => {
    // Other packages' jest suites consume dist/index.js: it must not need ESM transforms.
    const entry = require(join(buildDir, 'index.js')) as typeof import('../src');
    const server = await entry.startDevnetServer({ port: 0, accounts: 1 });
    try {
      expect((await rpc(server.rpcUrl, 'starknet_blockNumber')).result).toBe(0);
      expect(server.predeployedAccounts).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  test('parses flags, with defaults as documented', () => {
    expect(parseArgs([])).toEqual({ host: '127.0.0.1', port: 5050 });
    expect(
      parseArgs([
        '--host',
        '0.0.0.0',
        '--port=6000',
        '--seed',
        '3',
        '--accounts',
        '2',
        '--block-time',
        '500',
        '--preconfirm-delay',
        '50',
        '--chain-id',
        'SN_MAIN',
      ]),
    ).toEqual({
      host: '0.0.0.0',
      port: 6000,
      seed: 3,
      accounts: 2,
      blockTime: 500,
      preconfirmDelayMs: 50,
      chainId: 'SN_MAIN',
    });
    expect(() => parseArgs(['--port', '-1'])).toThrow(/non-negative integer/);
    expect(() => parseArgs(['--bogus', '1'])).toThrow(/unknown option --bogus/);
  });

  test('serves, prints the predeployed accounts, and exits cleanly on SIGTERM', async () => {
    const { cli, url } = await startCli([
      '--port',
      '0',
      '--accounts',
      '2',
      '--seed',
      '3',
      '--chain-id',
      'SN_MAIN',
    ]);
    try {
      expect((await rpc(`${url}/rpc`, 'starknet_chainId')).result).toBe('0x534e5f4d41494e');
      const accounts = (await rpc(url, 'devnet_getPredeployedAccounts')).result as {
        address: string;
        private_key: string;
      }[];
      expect(accounts).toHaveLength(2);
      expect(cli.output()).toContain(accounts[1].address);
      expect(cli.output()).toContain(accounts[1].private_key);
    } finally {
      await cli.stop('SIGTERM');
    }
    expect((await cli.waitForExit()).code).toBe(0);
  });

  test('exits cleanly on SIGINT too', async () => {
    const { cli } = await startCli(['--port', '0', '--accounts', '1', '--block-time', '1000']);
    await cli.stop('SIGINT');
    expect(await cli.waitForExit()).toEqual({ code: 0, signal: null });
  });
});
