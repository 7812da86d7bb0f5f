/**
 * scripts/check-import-cycles.mjs, npm test's import rules, on small workspaces written here: a
 * clean one passes, and each broken rule is the clean one with one file added or changed, so the
 * failure it reports is that change's alone. One checker (`--serve`) checks them all, so
 * TypeScript loads once; the command line's own exit status and output are checked apart.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { REPO_ROOT } from '@l2wallet/testkit';

const CHECKER = path.join(REPO_ROOT, 'scripts/check-import-cycles.mjs');

type Tree = Record<string, string>;

const manifest = (name: string, layers?: unknown) =>
  JSON.stringify({ name, version: '0.0.0', ...(layers === undefined ? {} : { layers }) });

/**
 * Two packages. `app` declares layers, with `core/` given its own (`rules/` inside it stays
 * free); `low` declares none. `app` reaches `low` by name, its entry and a path inside it.
 */
const APP_LAYERS = [
  'base/',
  { 'core/': ['values.ts', 'rules/', ['report.ts', 'format.ts']] },
  ['index.ts', 'cli.ts'],
];
const CLEAN: Tree = {
  'packages/low/package.json': manifest('@fx/low'),
  'packages/low/src/index.ts': "export const low = 1;\nexport * from './a/x';\n",
  'packages/low/src/a/x.ts': "import { y } from '../b/y';\nexport const x = y;\n",
  'packages/low/src/b/y.ts': 'export const y = 2;\n',
  'packages/app/package.json': manifest('@fx/app', APP_LAYERS),
  'packages/app/src/base/id.ts': 'export const id = (value: string) => value;\n',
  'packages/app/src/core/values.ts':
    "import { id } from '../base/id';\nexport const v = id('v');\n",
  'packages/app/src/core/rules/check.ts':
    "import { v } from '../values';\nimport { limit } from './limit';\n" +
    'export const ok = v && limit;\n',
  'packages/app/src/core/rules/limit.ts': 'export const limit = 3;\n',
  'packages/app/src/core/format.ts': 'export const format = (text: string) => text.trim();\n',
  'packages/app/src/core/report.ts':
    "import { ok } from './rules/check';\nexport const report = () => ok;\n",
  'packages/app/src/index.ts':
    "import { low } from '@fx/low';\nimport { y } from '@fx/low/src/b/y';\n" +
    "export { report } from './core/report';\nexport const both = low + y;\n",
  'packages/app/src/cli.ts': "export type Cli = { argv: string[] };\nexport const cli = 'cli';\n",
  'packages/app/test/index.test.ts': "import { both } from '../src';\nexport const seen = both;\n",
};

let workspaces: string;
let checker: ChildProcessWithoutNullStreams;
/** The checker's answers not yet read, and the readers waiting for one. */
const answers: string[] = [];
const waiting: ((line: string) => void)[] = [];
beforeAll(() => {
  workspaces = mkdtempSync(path.join(tmpdir(), 'import-rules-'));
  checker = spawn(process.execPath, [CHECKER, '--serve']);
  let pending = '';
  checker.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const reader = waiting.shift();
      if (reader) reader(line);
      else answers.push(line);
    }
  });
});
afterAll(() => {
  checker.kill();
  rmSync(workspaces, { recursive: true, force: true });
});

let count = 0;
/** Writes CLEAN with `changes` (a null deletes a file) into a new workspace; its folder. */
function workspace(changes: Record<string, string | null>): string {
  count += 1;
  const root = path.join(workspaces, String(count));
  for (const [file, text] of Object.entries({ ...CLEAN, ...changes })) {
    if (text === null) continue;
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** Checks CLEAN with `changes`: the exit status, stdout and stderr lines the command would give. */
async function check(changes: Record<string, string | null>) {
  checker.stdin.write(`${workspace(changes)}\n`);
  const line = answers.shift() ?? (await new Promise<string>((resolve) => waiting.push(resolve)));
  const answer = JSON.parse(line) as { status: number; stdout: string[]; stderr: string[] };
  const stdout = answer.stdout.map((text) => `${text}\n`).join('');
  return { status: answer.status, stdout, problems: answer.stderr };
}

describe('scripts/check-import-cycles.mjs', () => {
  it('passes a workspace that keeps every rule', async () => {
    const run = await check({});
    expect(run.problems).toEqual([]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('import cycles: none in 12 modules');
    expect(run.stdout).toContain('every declared layer imports only downward');
  });

  const upward = [
    'upward import in packages/app/src: base/ (layer 0) imports cli.ts (layer 2)',
    '  packages/app/src/base/late.ts imports packages/app/src/cli.ts',
  ];
  it.each([
    ['an import', "import { cli } from '../cli';\nexport const late = cli;\n"],
    ['a type-only import', "import type { Cli } from '../cli';\nexport type Late = Cli;\n"],
    ['an import() type', "export type Late = import('../cli').Cli;\n"],
    ['a dynamic import()', "export const late = () => import('../cli');\n"],
    ['a require()', "export const late = () => require('../cli');\n"],
    ['an export ... from', "export { cli } from '../cli';\n"],
  ])('fails an upward import made by %s', async (_, text) => {
    const run = await check({ 'packages/app/src/base/late.ts': text });
    expect(run.problems).toEqual(upward);
    expect(run.status).toBe(1);
  });

  it('fails a top-level folder or file that is in no layer', async () => {
    const run = await check({
      'packages/app/src/extra/x.ts': "export { v } from '../core/values';\n",
      'packages/app/src/loose.ts': 'export const loose = 1;\n',
    });
    expect(run.problems.sort()).toEqual([
      'packages/app/src/extra/ is in no layer: add it to "layers" in packages/app/package.json',
      'packages/app/src/loose.ts is in no layer: add it to "layers" in packages/app/package.json',
    ]);
    expect(run.status).toBe(1);
  });

  it('fails an upward import between the units of a folder with layers of its own', async () => {
    // rules/ (the core/ layer 1) is free inside, but not toward the rest of core/.
    const run = await check({
      'packages/app/src/core/rules/late.ts': "import { format } from '../format';\nformat('');\n",
    });
    expect(run.problems).toEqual([
      'upward import in packages/app/src/core: rules/ (layer 1) imports format.ts (layer 2)',
      '  packages/app/src/core/rules/late.ts imports packages/app/src/core/format.ts',
    ]);
    expect(run.status).toBe(1);
  });

  it('fails a unit of a layered folder that is in no layer, and a listed unit that is gone', async () => {
    const run = await check({
      'packages/app/src/core/extra.ts': "export { v } from './values';\n",
      'packages/app/src/core/report.ts': null,
      'packages/app/src/index.ts': 'export const both = 1;\n',
    });
    expect(run.problems.sort()).toEqual([
      'packages/app/package.json: the "core/" layers list report.ts, but packages/app/src/core ' +
        'has no such unit',
      'packages/app/src/core/extra.ts is in no layer: add it to the "core/" layers in ' +
        'packages/app/package.json',
    ]);
    expect(run.status).toBe(1);
  });

  it.each([
    ['src/', 'packages/app/src/cli.ts', "export { low } from '../../low/src';\n", '../../low/src'],
    [
      'test/',
      'packages/app/test/low.test.ts',
      "import '../../low/src/b/y';\n",
      '../../low/src/b/y',
    ],
  ])('fails a relative import into another package from %s', async (_, file, text, spec) => {
    const run = await check({ [file]: text });
    expect(run.problems).toEqual([
      `relative import across packages: ${file} imports '${spec}' (in packages/low): ` +
        'import a workspace package by its name',
    ]);
    expect(run.status).toBe(1);
  });

  it('fails a folder cycle in a package without layers, and names the imports behind it', async () => {
    const run = await check({ 'packages/low/src/b/z.ts': "export { x } from '../a/x';\n" });
    expect(run.problems).toEqual([
      'folder cycle in packages/low/src: a/ -> b/ -> a/',
      '  packages/low/src/a/x.ts imports packages/low/src/b/y.ts',
      '  packages/low/src/b/z.ts imports packages/low/src/a/x.ts',
    ]);
    expect(run.status).toBe(1);
  });

  it('fails a module cycle anywhere, through a package name too', async () => {
    const run = await check({
      'packages/low/src/b/y.ts': "import '@fx/app';\nexport const y = 2;\n",
    });
    expect(run.problems[0]).toMatch(/^import cycle: packages\/app\/src\/index\.ts -> /);
    expect(run.problems).toContain('1 import cycle(s): move the shared piece into its own module.');
    expect(run.status).toBe(1);
  });

  it('fails a "layers" entry it cannot read', async () => {
    const run = await check({
      'packages/app/package.json': manifest('@fx/app', [...APP_LAYERS, 7, { 'cli.ts': [] }]),
    });
    expect(run.problems).toEqual([
      'packages/app/package.json: a layer holds "folder/", "file.ts", "*" or ' +
        '{ "folder/": [layers] }, not 7',
      'packages/app/package.json: nested layers belong to a folder ("name/"), not "cli.ts"',
    ]);
    expect(run.status).toBe(1);
  });

  it('as a command: exit 0 and its report on a clean workspace, exit 1 and the break on stderr', () => {
    const clean = spawnSync(process.execPath, [CHECKER, '--root', workspace({})], {
      encoding: 'utf8',
    });
    expect(clean.status).toBe(0);
    expect(clean.stderr).toBe('');
    expect(clean.stdout).toContain('import cycles: none in 12 modules');
    const broken = workspace({
      'packages/app/src/base/late.ts': "import { cli } from '../cli';\nexport const late = cli;\n",
    });
    const run = spawnSync(process.execPath, [CHECKER, '--root', broken], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr.split('\n').filter((line) => line !== '')).toEqual(upward);
  });
});
