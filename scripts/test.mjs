#!/usr/bin/env node
/**
 * `npm test` (and `.ci/run` through it):
 *   1. the prerequisite check (prereqs.mjs), first and alone: a missing chromium or redis-server
 *      is named, or installed, before anything else runs;
 *   2. the builds jest needs from its start, side by side (checks.mjs `build`: the testkit, the
 *      gateway, the paymaster, each snap's test build); a failure stops here. The site's build
 *      starts with them and goes on beside jest: only the browser tests use it, jest runs them
 *      last while it is being made (jest/sequencer.js), and they wait for it if need be;
 *   3. jest, with the arguments given to npm test, and beside it lint and the type-check
 *      (checks.mjs `lint`): jest mostly waits on servers, snaps and browsers, lint is mostly one
 *      busy thread, so side by side they share the 2 cores. npm test fails if any of them does.
 * Each phase's wall time is printed as it ends.
 */
// eslint-disable-next-line no-restricted-imports
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { killAll, runSteps, STEPS } from './checks.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const log = (line) => console.log(`[npm test] ${line}`);

/** CPU seconds of this process and its waited-for children (npm run test:profile's phases). */
function cpuSoFar() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return (fields[11] + fields[12] + fields[13] + fields[14]) / 100;
}
let phaseCpu = 0;
/** Under npm run test:profile, records a phase's wall and CPU seconds. */
function recordPhase(name, began) {
  if (!process.env.L2_TEST_PROFILE || process.platform !== 'linux') return;
  const cpu = cpuSoFar();
  const event = { kind: 'phase', name, wall: (Date.now() - began) / 1000, cpu: cpu - phaseCpu };
  phaseCpu = cpu;
  appendFileSync(
    path.join(process.env.L2_TEST_PROFILE, 'events.jsonl'),
    `${JSON.stringify(event)}\n`,
  );
}

let phase = Date.now();
const prereqs = spawnSync(process.execPath, [path.join(ROOT, 'scripts/prereqs.mjs')], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (prereqs.status !== 0) process.exit(prereqs.status ?? 1);
log(`prerequisites: ${seconds(Date.now() - phase)}`);
recordPhase('prerequisites', phase);

phase = Date.now();
// The testkit first (the other builds load it), then the rest side by side. The site's build
// starts with them but is not waited for: it goes on beside jest.
const isTestkit = (step) => step.name === 'testkit';
let buildsFailed = await runSteps(STEPS.filter(isTestkit));
let besideJestDone = Promise.resolve([]);
if (buildsFailed.length === 0) {
  const besideJestStarted = Date.now();
  besideJestDone = runSteps(STEPS.filter((step) => step.besideJest)).then((failed) => {
    log(`the site's build: ${seconds(Date.now() - besideJestStarted)}`);
    return failed;
  });
  buildsFailed = await runSteps(
    STEPS.filter((step) => step.group === 'build' && !step.besideJest && !isTestkit(step)),
  );
}
log(`builds: ${seconds(Date.now() - phase)}`);
recordPhase('builds', phase);
if (buildsFailed.length > 0) {
  killAll();
  process.exit(1);
}

phase = Date.now();
const jestDone = new Promise((resolve) => {
  const jest = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/jest/bin/jest.js'), ...process.argv.slice(2)],
    { cwd: ROOT, stdio: 'inherit' },
  );
  // Before checks.mjs's own handler, which ends this process.
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.prependListener(signal, () => jest.kill(signal));
  jest.once('close', (code, signal) => {
    log(`jest: ${seconds(Date.now() - phase)}`);
    resolve(code ?? (signal ? 1 : 0));
  });
});
const lintDone = runSteps(STEPS.filter((step) => step.group === 'lint')).then((failed) => {
  log(`lint and type-check: ${seconds(Date.now() - phase)}`);
  return failed;
});
const [jestCode, lintFailed] = await Promise.all([
  jestDone,
  Promise.all([lintDone, besideJestDone]).then((lists) => lists.flat()),
]);
log(`jest and lint: ${seconds(Date.now() - phase)}`);
recordPhase('jest and lint (side by side)', phase);
if (lintFailed.length > 0) {
  log(`failed: ${lintFailed.join(', ')} (output above)`);
  process.exit(1);
}
process.exit(jestCode);
