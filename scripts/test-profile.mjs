#!/usr/bin/env node
/**
 * `npm run test:profile [-- <jest arguments>]`: npm test (scripts/test.mjs), with every phase,
 * build and lint step, test file, transpile, snap install and service start-up timed in wall and
 * CPU seconds. Writes events.jsonl, jest.json and profile.md under
 * node_modules/.cache/test-profile/<time>/ and prints profile.md.
 *
 * jest's transform cache starts empty (as in a clean clone) unless `--warm` is given. The builds'
 * caches (dist/, node_modules/.cache) are kept: profile a clean clone for cold builds.
 *
 *   npm run test:profile                               the whole of npm test
 *   npm run test:profile -- --maxWorkers=2 packages/gateway   one package
 *   node scripts/test-profile.mjs --report <folder>    the table of an earlier run again
 */
// eslint-disable-next-line no-restricted-imports
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** CPU seconds of this process's waited-for children (/proc/self/stat cutime + cstime). */
function childrenCpu() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return (fields[13] + fields[14]) / 100;
}

const s = (seconds) => (seconds === undefined ? '' : seconds.toFixed(1));
const sum = (events, key) => events.reduce((total, event) => total + (event[key] ?? 0), 0);
const table = (head, rows) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');

/** Groups events by `key(event)`: count, wall and CPU summed. */
function grouped(events, key) {
  const groups = new Map();
  for (const event of events) {
    const group = groups.get(key(event)) ?? { n: 0, wall: 0, cpu: 0 };
    group.n += 1;
    group.wall += event.wall ?? 0;
    group.cpu += event.cpu ?? 0;
    groups.set(key(event), group);
  }
  return [...groups].sort((a, b) => b[1].cpu - a[1].cpu);
}

export function report(dir) {
  const events = readFileSync(path.join(dir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const of = (kind) => events.filter((event) => event.kind === kind);
  const run = of('run')[0];
  const jestJson = path.join(dir, 'jest.json');
  const results = existsSync(jestJson) ? JSON.parse(readFileSync(jestJson, 'utf8')) : undefined;
  const testsPerFile = new Map(
    (results?.testResults ?? []).map((file) => [
      path.relative(ROOT, file.name),
      file.assertionResults.length,
    ]),
  );
  const out = [];
  if (run) {
    out.push(
      `npm test: ${s(run.wall)} s wall, ${s(run.cpu)} s CPU (${s(run.cpu / 60)} CPU-minutes); ` +
        `exit ${run.code}; ${run.args}`,
    );
  }
  if (results) {
    out.push(
      `jest: ${results.numTotalTests} tests in ${results.numTotalTestSuites} files, ` +
        `${results.numPassedTests} passed, ${results.numFailedTests} failed`,
    );
  }
  if (run?.load) out.push(`load average at start ${run.load[0]}, at end ${run.loadEnd?.[0]}`);
  out.push(
    '',
    table(
      ['phase', 'wall s', 'CPU s'],
      of('phase').map((e) => [e.name, s(e.wall), s(e.cpu)]),
    ),
  );
  const steps = [...of('build'), ...of('lint')];
  out.push(
    '',
    table(
      ['step', 'wall s', 'CPU s'],
      steps.map((e) => [`${e.kind}: ${e.name}`, s(e.wall), s(e.cpu)]),
    ),
  );
  const files = of('file');
  const transpiles = of('transpile');
  const rows = [
    ['test files: their worker', files.length, s(sum(files, 'wall')), s(sum(files, 'cpu'))],
    ['test files: processes they started', '', '', s(sum(files, 'children'))],
    ['transpiling (in the workers)', sum(transpiles, 'files'), '', s(sum(transpiles, 'cpu'))],
  ];
  for (const [name, group] of grouped(of('snap-install'), (e) => e.name)) {
    rows.push([`snap installs (${name})`, group.n, s(group.wall), s(group.cpu)]);
  }
  for (const [name, group] of grouped(of('service-start'), (e) => e.name)) {
    rows.push([`start-up: ${name}`, group.n, s(group.wall), s(group.cpu)]);
  }
  for (const [name, group] of grouped(of('service-life'), (e) => e.name)) {
    rows.push([`whole life: ${name}`, group.n, '', s(group.cpu)]);
  }
  for (const [name, group] of grouped(of('command'), (e) => e.name.split(' ')[0])) {
    rows.push([`commands in tests: ${name}`, group.n, s(group.wall), s(group.cpu)]);
  }
  out.push(
    '',
    "Where jest's CPU goes (start-up CPU is the service's own until ready; a devnet, Chromium and " +
      "snap installs count the worker's CPU meanwhile):",
    '',
    table(['what', 'count', 'wall s', 'CPU s'], rows),
  );
  const perFile = new Map();
  for (const event of events) {
    if (!event.file) continue;
    const row = perFile.get(event.file) ?? { installs: 0, installCpu: 0, starts: 0, startWall: 0 };
    if (event.kind === 'file') Object.assign(row, event);
    if (event.kind === 'transpile') row.transpile = event.cpu;
    if (event.kind === 'snap-install') {
      row.installs += 1;
      row.installCpu += event.cpu;
    }
    if (event.kind === 'service-start') {
      row.starts += 1;
      row.startWall += event.wall;
    }
    perFile.set(event.file, row);
  }
  const fileRows = [...perFile]
    .filter(([, row]) => row.wall !== undefined)
    .sort((a, b) => b[1].wall - a[1].wall)
    .map(([file, row]) => [
      file.replace(/^packages\//, ''),
      testsPerFile.get(file) ?? '',
      s(row.wall),
      s(row.cpu + row.children),
      s(row.cpu),
      s(row.children),
      s(row.transpile),
      row.installs ? `${row.installs} / ${s(row.installCpu)}` : '',
      row.starts ? `${row.starts} / ${s(row.startWall)}` : '',
    ]);
  out.push(
    '',
    "Per test file, slowest first (CPU: the worker's own plus the processes the file started " +
      'that exited during it):',
    '',
    table(
      [
        'file',
        'tests',
        'wall s',
        'CPU s',
        'worker CPU s',
        'child CPU s',
        'transpile CPU s',
        'snap installs / CPU s',
        'services started / wall s',
      ],
      fileRows,
    ),
  );
  const text = `${out.join('\n')}\n`;
  writeFileSync(path.join(dir, 'profile.md'), text);
  return text;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === '--report') {
    process.stdout.write(report(path.resolve(args[1])));
    process.exit(0);
  }
  const warm = args.includes('--warm');
  const jestArgs = args.filter((arg) => arg !== '--warm');
  const dir = path.join(
    ROOT,
    'node_modules/.cache/test-profile',
    new Date().toISOString().replace(/[:.]/g, '-'),
  );
  mkdirSync(dir, { recursive: true });
  const { loadavg } = await import('node:os');
  const load = loadavg();
  const began = Date.now();
  const extra = [`--json`, `--outputFile=${path.join(dir, 'jest.json')}`];
  if (!warm) extra.push(`--cacheDirectory=${path.join(dir, 'jest-cache')}`);
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/test.mjs', ...extra, ...jestArgs], {
      cwd: ROOT,
      env: { ...process.env, L2_TEST_PROFILE: dir },
      stdio: 'inherit',
    });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.once('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  const event = {
    kind: 'run',
    name: 'npm test',
    wall: (Date.now() - began) / 1000,
    cpu: childrenCpu(),
    code,
    args: jestArgs.join(' ') || '(all)',
    load,
    loadEnd: loadavg(),
  };
  writeFileSync(path.join(dir, 'events.jsonl'), `${JSON.stringify(event)}\n`, { flag: 'a' });
  process.stdout.write(`\n${report(dir)}\nWritten to ${path.relative(ROOT, dir)}/profile.md\n`);
  process.exit(code);
}
