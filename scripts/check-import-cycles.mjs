#!/usr/bin/env node
/**
 * The workspace's import rules; fails (exit 1) when one is broken:
 *   1. No module imports itself through others: no import cycle anywhere in the workspace
 *      (every package's sources, tests and scripts, the benches and the root scripts).
 *   2. No folder cycle inside a package's src/: its top-level folders and files (the units:
 *      `chain/`, `ui/`, `index.ts`) never import each other round in a loop.
 *   3. A package that declares `"layers"` in its package.json (lowest first) imports only
 *      downward, in src/ and in each folder given layers of its own; every unit is in a layer.
 *      The format is in ./import-rules/layers.mjs.
 *   4. No relative import from one package into another: packages import each other by name.
 *
 * Type-only imports count too: a cycle of types still ties two modules into one.
 *
 *   node scripts/check-import-cycles.mjs [--root DIR]   DIR: a workspace other than this one
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { cycles, importGraph, loopThrough } from './import-rules/graph.mjs';
import { packageRuleBreaks } from './import-rules/layers.mjs';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rootAt = process.argv.indexOf('--root');
const ROOT = rootAt === -1 ? HERE : path.resolve(process.argv[rootAt + 1] ?? '.');

const dirs = ['packages', 'bench', 'scripts'].map((dir) => path.join(ROOT, dir));
const { graph, relative } = importGraph(ROOT, dirs);
const rel = (file) => path.relative(ROOT, file);
let failed = false;

const found = cycles(graph);
if (found.length === 0) {
  console.log(`import cycles: none in ${graph.size} modules`);
} else {
  failed = true;
  for (const component of found) {
    const loop = loopThrough(graph, component[0], new Set(component));
    console.error(`import cycle: ${loop.map(rel).join(' -> ')}`);
    if (component.length > loop.length - 1) {
      console.error(
        `  (${component.length} modules in this knot: ${component.map(rel).join(', ')})`,
      );
    }
  }
  console.error(`${found.length} import cycle(s): move the shared piece into its own module.`);
}

const breaks = packageRuleBreaks(ROOT, graph, relative);
if (breaks.length === 0) {
  console.log(
    'packages: no folder cycle, every declared layer imports only downward, ' +
      'and no relative import across packages',
  );
} else {
  failed = true;
  for (const line of breaks) console.error(line);
}
if (failed) process.exit(1);
