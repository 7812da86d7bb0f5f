#!/usr/bin/env node
/**
 * The workspace's import rules (docs/architecture/README.md#the-import-rules); fails (exit 1) when
 * one is broken. Type-only imports count too: a cycle of types still ties two modules into one.
 *
 *   node scripts/check-import-cycles.mjs [--root DIR]   DIR: a workspace other than this one
 *   node scripts/check-import-cycles.mjs --serve        one workspace root per stdin line, one
 *                                                       JSON line {status, stdout, stderr} back
 * (--serve lets the checker's tests load TypeScript once for all their workspaces.)
 */
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { cycles, importGraph, loopThrough } from './import-rules/graph.mjs';
import { packageRuleBreaks } from './import-rules/layers.mjs';

/** The rules checked on the workspace at `root`: exit status and the lines to print. */
function check(root) {
  const stdout = [];
  const stderr = [];
  const dirs = ['packages', 'bench', 'scripts'].map((dir) => path.join(root, dir));
  const { graph, relative } = importGraph(root, dirs);
  const rel = (file) => path.relative(root, file);
  let failed = false;

  const found = cycles(graph);
  if (found.length === 0) {
    stdout.push(`import cycles: none in ${graph.size} modules`);
  } else {
    failed = true;
    for (const component of found) {
      const loop = loopThrough(graph, component[0], new Set(component));
      stderr.push(`import cycle: ${loop.map(rel).join(' -> ')}`);
      if (component.length > loop.length - 1) {
        stderr.push(
          `  (${component.length} modules in this knot: ${component.map(rel).join(', ')})`,
        );
      }
    }
    stderr.push(`${found.length} import cycle(s): move the shared piece into its own module.`);
  }

  const breaks = packageRuleBreaks(root, graph, relative);
  if (breaks.length === 0) {
    stdout.push(
      'packages: no folder cycle, every declared layer imports only downward, ' +
        'and no relative import across packages',
    );
  } else {
    failed = true;
    stderr.push(...breaks);
  }
  return { status: failed ? 1 : 0, stdout, stderr };
}

if (process.argv.includes('--serve')) {
  for await (const line of createInterface({ input: process.stdin })) {
    process.stdout.write(`${JSON.stringify(check(path.resolve(line)))}\n`);
  }
} else {
  const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const rootAt = process.argv.indexOf('--root');
  const result = check(rootAt === -1 ? here : path.resolve(process.argv[rootAt + 1] ?? '.'));
  for (const line of result.stdout) console.log(line);
  for (const line of result.stderr) console.error(line);
  process.exitCode = result.status;
}
