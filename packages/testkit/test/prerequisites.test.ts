/**
 * A missing system package is named at once, with the command that installs it: by npm test's
 * first step (scripts/prereqs.mjs) and by every service the testkit starts.
 */
import childProcess, { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { REPO_ROOT, spawnService, startRedis } from '@l2wallet/testkit';

const PREREQS = path.join(REPO_ROOT, 'scripts/prereqs.mjs');

let emptyDir: string;
/** A stand-in apt-get that records its calls: an install would be the one slow thing. */
let aptDir: string;
let aptLog: string;
beforeAll(() => {
  emptyDir = mkdtempSync(path.join(tmpdir(), 'prereqs-'));
  aptDir = mkdtempSync(path.join(tmpdir(), 'prereqs-apt-'));
  aptLog = path.join(aptDir, 'calls');
  writeFileSync(path.join(aptDir, 'apt-get'), `#!/bin/sh\necho "$@" >> ${aptLog}\n`);
  chmodSync(path.join(aptDir, 'apt-get'), 0o755);
});
afterAll(() => {
  rmSync(emptyDir, { recursive: true, force: true });
  rmSync(aptDir, { recursive: true, force: true });
});

/**
 * Runs the check with `env` replacing PATH / CHROMIUM_PATH; its output and status (null when
 * it was still running after 30 s and was killed).
 */
function check(env: Record<string, string>) {
  const result = spawnSync(process.execPath, [PREREQS], {
    env: { HOME: process.env.HOME ?? '/', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('scripts/prereqs.mjs', () => {
  it('stops at once (nothing installed) naming redis-server and its install command when it is not on PATH', () => {
    const chromium = path.join(emptyDir, 'chromium');
    writeFileSync(chromium, '#!/bin/sh\n');
    chmodSync(chromium, 0o755);
    const run = check({
      PATH: `${emptyDir}:${aptDir}`,
      CHROMIUM_PATH: chromium,
      PREREQS_NO_INSTALL: '1',
    });
    expect(run.status).toBe(1);
    expect(run.output).toMatch(/redis-server: redis-server is not on PATH/);
    expect(run.output).toContain('apt-get install -y redis-server');
    expect(run.output).not.toMatch(/- chromium/);
    expect(existsSync(aptLog)).toBe(false);
  });

  it('names chromium when CHROMIUM_PATH points at nothing, and both packages together', () => {
    const run = check({
      PATH: `${emptyDir}:${aptDir}`,
      CHROMIUM_PATH: '/nonexistent/chromium',
      PREREQS_NO_INSTALL: '1',
    });
    expect(run.status).toBe(1);
    expect(run.output).toMatch(
      /chromium: CHROMIUM_PATH=\/nonexistent\/chromium is not an executable/,
    );
    expect(run.output).toContain('apt-get install -y redis-server chromium');
    expect(existsSync(aptLog)).toBe(false);
  });

  it('passes silently when everything is there', () => {
    const redis = path.join(emptyDir, 'redis-server');
    const chromium = path.join(emptyDir, 'chromium');
    for (const file of [redis, chromium]) {
      writeFileSync(file, '#!/bin/sh\n');
      chmodSync(file, 0o755);
    }
    try {
      const run = check({ PATH: emptyDir, CHROMIUM_PATH: chromium });
      expect(run).toMatchObject({ status: 0, output: '' });
    } finally {
      rmSync(redis);
    }
  });

  const rootOnDebian =
    process.getuid?.() === 0 &&
    /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(readFileSync('/etc/os-release', 'utf8'));
  (rootOnDebian ? it : it.skip)(
    'as root on Debian: says it installs with apt-get, runs update then install, then re-checks',
    () => {
      // A stand-in apt-get that records its calls and installs nothing.
      const dir = mkdtempSync(path.join(tmpdir(), 'prereqs-apt-'));
      const log = path.join(dir, 'calls');
      writeFileSync(path.join(dir, 'apt-get'), `#!/bin/sh\necho "$@" >> ${log}\n`);
      chmodSync(path.join(dir, 'apt-get'), 0o755);
      try {
        const run = check({ PATH: dir, CHROMIUM_PATH: '/nonexistent' });
        expect(run.output).toContain('installing redis-server, chromium with apt-get');
        const calls = readFileSync(log, 'utf8').trim().split('\n');
        expect(calls[0]).toMatch(/^update/);
        expect(calls[1]).toMatch(/^install -y .*redis-server chromium$/);
        expect(run.status).toBe(1);
        expect(run.output).toContain('still missing');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('services the testkit starts', () => {
  it('redis-server missing: startRedis rejects at once with the package and its install command', async () => {
    const path0 = process.env.PATH;
    process.env.PATH = emptyDir;
    // At once: refused before anything is spawned (so nothing is waited for).
    const spawn = jest.spyOn(childProcess, 'spawn');
    try {
      await expect(startRedis()).rejects.toThrow(
        /redis-server.*not installed.*apt-get install -y redis-server/,
      );
      expect(spawn).not.toHaveBeenCalled();
    } finally {
      spawn.mockRestore();
      process.env.PATH = path0;
    }
  });

  it('any missing command fails fast, naming it', async () => {
    await expect(
      spawnService({ name: 'ghost', command: '/nonexistent/ghost-server', readyLine: /ready/ }),
    ).rejects.toThrow(/ghost.*"\/nonexistent\/ghost-server" is not installed/);
  });
});
