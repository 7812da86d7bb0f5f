#!/usr/bin/env node
/**
 * npm test's checks and builds, as steps that run side by side (scripts/test.mjs runs the `build`
 * group before jest and the `lint` group beside it): on 2 cores, one after another they left a
 * core idle, since eslint, prettier, tsc and each mm-snap build are mostly one thread each. A
 * step starts once the steps it needs have passed; its output is printed only when it fails.
 * It runs before the testkit is built (it builds it), so it starts its commands itself.
 *
 *   node scripts/checks.mjs [lint|build|dist]    every step, or one group
 *
 * The groups and the order of steps: docs/testing.md#what-npm-test-runs.
 */
// eslint-disable-next-line no-restricted-imports
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NODE = process.execPath;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const bin = (file) => path.join(ROOT, 'node_modules', file);

/** `npm run build` of one workspace package (its own build script stays the one definition). */
const npmBuild = (pkg) => [NPM, 'run', 'build', '--silent', '-w', `packages/${pkg}`];

/**
 * @typedef {{
 *   name: string, group: string, run: string[][], needs?: string[], besideJest?: boolean
 * }} Step
 */
/** @type {Step[]} */
export const STEPS = [
  {
    name: 'testkit',
    group: 'build',
    run: [[NODE, bin('typescript/bin/tsc'), '-b', 'packages/testkit']],
  },
  { name: 'eslint', group: 'lint', run: [[NODE, bin('eslint/bin/eslint.js'), '.']] },
  {
    name: 'prettier',
    group: 'lint',
    run: [[NODE, bin('prettier/bin/prettier.cjs'), '--check', '.']],
  },
  { name: 'import rules', group: 'lint', run: [[NODE, 'scripts/check-import-cycles.mjs']] },
  // After the testkit step: both would write packages/testkit/dist.
  {
    name: 'tsc -b',
    group: 'lint',
    needs: ['testkit'],
    run: [[NODE, bin('typescript/bin/tsc'), '-b']],
  },
  { name: 'gateway', group: 'build', run: [npmBuild('gateway')] },
  { name: 'paymaster', group: 'build', run: [npmBuild('paymaster')] },
  {
    name: 'snap',
    group: 'build',
    needs: ['testkit'],
    run: [[NODE, 'packages/snap/test/harness/build-e2e-snap.cjs']],
  },
  {
    // The browser tests' site (client dist, then gatsby build), reused by every site test file.
    // Only those files need it, and they wait for it (ensureSiteBuild's lock): npm test makes it
    // beside jest, in the time jest's other files spend waiting on servers and timeouts.
    name: 'site',
    group: 'build',
    besideJest: true,
    needs: ['testkit'],
    run: [[NODE, '-e', "require('@l2wallet/testkit').ensureSiteBuild()"]],
  },
  {
    name: 'keyring-snap',
    group: 'build',
    needs: ['testkit'],
    run: [[NODE, 'packages/keyring-snap/test/harness/build-test-snap.cjs']],
  },
  { name: 'snap dist', group: 'dist', needs: ['snap'], run: [npmBuild('snap')] },
  { name: 'keyring dist', group: 'dist', needs: ['keyring-snap'], run: [npmBuild('keyring-snap')] },
];

const running = new Set();

/** Ends every step still running (each command's process group). */
export function killAll() {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * Under `npm run test:profile` (L2_TEST_PROFILE set), `command` run through GNU time, and a
 * function that records the wall and CPU seconds it took (events.jsonl, as the testkit does).
 */
function profiledCommand(command, kind, name) {
  const dir = process.env.L2_TEST_PROFILE;
  if (!dir || !existsSync('/usr/bin/time')) return { command, record: () => undefined };
  const timings = path.join(os.tmpdir(), `checks-time-${process.pid}-${Math.random()}`);
  return {
    command: ['/usr/bin/time', '-q', '-f', '%e %U %S', '-o', timings, ...command],
    record: () => {
      try {
        const [wall, user, system] = readFileSync(timings, 'utf8')
          .trim()
          .split('\n')
          .pop()
          .split(' ');
        rmSync(timings, { force: true });
        const event = { kind, name, wall: Number(wall), cpu: Number(user) + Number(system) };
        appendFileSync(path.join(dir, 'events.jsonl'), `${JSON.stringify(event)}\n`);
      } catch {
        // no timing written (the command could not start): nothing to record
      }
    },
  };
}

/** Runs one command in its own process group; resolves with its exit code and output. */
function runOne(command, kind, name) {
  const profiled = profiledCommand(command, kind, name);
  return runProcess(profiled.command).then((result) => {
    profiled.record();
    return result;
  });
}

function runProcess([command, ...args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child);
    let output = '';
    const collect = (chunk) => {
      output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', (error) => {
      running.delete(child);
      resolve({ code: 1, output: `${output}${command}: ${error.message}\n` });
    });
    child.once('close', (code, signal) => {
      running.delete(child);
      resolve({ code: code ?? 1, output, signal });
    });
  });
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs `steps` side by side, each once the steps it needs (among `steps`) have passed. Prints a
 * line per step as it ends, and the output of each that failed. Resolves with the failed names.
 */
export async function runSteps(steps) {
  const names = new Set(steps.map((step) => step.name));
  const done = new Map();
  const started = Date.now();
  const finish = (step, ok, note) => {
    done.set(step.name, ok);
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${step.name.padEnd(14)} ${note}`);
  };
  const start = async (step) => {
    const begun = Date.now();
    for (const command of step.run) {
      const { code, output, signal } = await runOne(command, step.group, step.name);
      if (code !== 0) {
        finish(
          step,
          false,
          `${seconds(Date.now() - begun)}: ${command
            .slice(0, 4)
            .map((part) => path.basename(part))
            .join(' ')} exited with ${signal ?? code}`,
        );
        process.stdout.write(`${output.trimEnd()}\n`);
        return;
      }
    }
    finish(step, true, seconds(Date.now() - begun));
  };
  const waiting = [...steps];
  const active = new Set();
  while (waiting.length > 0 || active.size > 0) {
    for (const step of [...waiting]) {
      const needs = (step.needs ?? []).filter((name) => names.has(name));
      if (needs.some((name) => done.get(name) === false)) {
        waiting.splice(waiting.indexOf(step), 1);
        finish(step, false, `skipped: needs ${needs.join(', ')}`);
      } else if (needs.every((name) => done.get(name) === true)) {
        waiting.splice(waiting.indexOf(step), 1);
        const task = start(step).then(() => active.delete(task));
        active.add(task);
      }
    }
    if (active.size > 0) await Promise.race(active);
  }
  const failed = steps.filter((step) => done.get(step.name) === false).map((step) => step.name);
  console.log(
    `${failed.length === 0 ? 'passed' : `failed: ${failed.join(', ')}`} (${steps.length} steps side by side, ${seconds(Date.now() - started)})`,
  );
  return failed;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const groups = process.argv.slice(2);
  const steps = groups.length ? STEPS.filter((step) => groups.includes(step.group)) : STEPS;
  if (steps.length === 0) {
    console.error(`No steps in ${groups.join(', ')}; groups: lint, build, dist.`);
    process.exit(2);
  }
  const failed = await runSteps(steps);
  process.exit(failed.length === 0 ? 0 : 1);
}
