#!/usr/bin/env node
/**
 * The workspace's import rules; fails (exit 1) when one is broken:
 *   1. No module imports itself through others: no import cycle anywhere in the workspace
 *      (every package's sources, tests and scripts, the benches and the root scripts).
 *   2. No folder cycle inside a package's src/: its top-level folders and files (the units:
 *      `chain/`, `ui/`, `index.ts`) never import each other round in a loop.
 *   3. A package that declares `"layers"` in its package.json (lowest first, each a unit or a list
 *      of units: `"node/"`, `"index.ts"`, or `"*"` for every file directly in src/) imports only
 *      downward: a unit never imports one in a higher layer, and every unit is in a layer.
 *
 * Type-only imports count too: a cycle of types still ties two modules into one. Edges are the
 * relative imports, `export ... from`, require() and import() of a literal, and imports of a
 * workspace package by name (resolved to its TypeScript entry, src/index.ts, when it has one).
 * The TypeScript parser reads the files; nothing is compiled or run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/u;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.cache', 'public', 'coverage', 'fixtures']);
const EXTENSIONS = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.d.ts', '.json'];

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (SOURCE.test(entry.name)) out.push(full);
  }
  return out;
}

/** Workspace package name -> the file its importers reach (TypeScript entry when there is one). */
function workspaceEntries() {
  const entries = new Map();
  const packagesDir = path.join(ROOT, 'packages');
  for (const name of fs.readdirSync(packagesDir)) {
    const manifest = path.join(packagesDir, name, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    const dir = path.join(packagesDir, name);
    const candidates = ['src/index.ts', 'src/index.tsx', 'index.ts', pkg.main ?? 'index.js'];
    const entry = candidates.map((c) => path.join(dir, c)).find((c) => fs.existsSync(c));
    if (entry) entries.set(pkg.name, entry);
  }
  return entries;
}

function resolveFile(base) {
  for (const ext of EXTENSIONS) {
    const file = base + ext;
    if (fs.existsSync(file) && fs.statSync(file).isFile()) return file;
  }
  // A .js specifier written for a .ts source (ESM style).
  const withoutJs = base.replace(/\.(m|c)?js$/u, '');
  if (withoutJs !== base) {
    for (const ext of ['.ts', '.tsx', '.mts', '.cts']) {
      if (fs.existsSync(withoutJs + ext)) return withoutJs + ext;
    }
  }
  for (const index of ['index.ts', 'index.tsx', 'index.js', 'index.cjs', 'index.mjs']) {
    const file = path.join(base, index);
    if (fs.existsSync(file)) return file;
  }
  return undefined;
}

function specifiers(file) {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      node.arguments.length === 1 &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) found.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Strongly connected components with more than one module, or a module importing itself. */
function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const result = [];
  const strongConnect = (start) => {
    // Iterative Tarjan, so deep graphs cannot overflow the call stack.
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter);
    counter += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, position] = frame;
      const edges = [...(graph.get(node) ?? [])];
      if (position < edges.length) {
        frame[1] += 1;
        const next = edges[position];
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter);
          counter += 1;
          stack.push(next);
          onStack.add(next);
          work.push([next, 0]);
        } else if (onStack.has(next)) {
          low.set(node, Math.min(low.get(node), index.get(next)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || graph.get(node)?.has(node)) result.push(component.sort());
      }
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) strongConnect(node);
  return result;
}

export function importGraph(roots) {
  const entries = workspaceEntries();
  const files = roots.filter((r) => fs.existsSync(r)).flatMap((r) => walk(r, []));
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const spec of specifiers(file)) {
      let target;
      if (spec.startsWith('.')) target = resolveFile(path.resolve(path.dirname(file), spec));
      else if (entries.has(spec)) target = entries.get(spec);
      if (target && SOURCE.test(target)) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The shortest path from `from` back to itself inside one component, to print. */
function loopThrough(graph, from, members) {
  const previous = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === from) {
        const loop = [from];
        for (let at = node; at !== from; at = previous.get(at)) loop.splice(1, 0, at);
        return [...loop, from];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [from, from];
}

/** A source file's package and unit (its top-level folder or file under src/), or undefined. */
function unitOf(file) {
  const parts = path.relative(path.join(ROOT, 'packages'), file).split(path.sep);
  if (parts.length < 3 || parts[0] === '..' || parts[1] !== 'src') return undefined;
  return { pkg: parts[0], unit: parts.length > 3 ? `${parts[2]}/` : parts[2] };
}

/**
 * Per package, the graph of its units, and one file-level import behind each unit edge (to
 * print). Only imports between two units of the same package's src/ count.
 */
function unitGraphs(graph) {
  const packages = new Map();
  for (const [from, targets] of graph) {
    const a = unitOf(from);
    if (!a) continue;
    if (!packages.has(a.pkg)) packages.set(a.pkg, { graph: new Map(), why: new Map() });
    const pkg = packages.get(a.pkg);
    if (!pkg.graph.has(a.unit)) pkg.graph.set(a.unit, new Set());
    for (const to of targets) {
      const b = unitOf(to);
      if (!b || b.pkg !== a.pkg || b.unit === a.unit) continue;
      pkg.graph.get(a.unit).add(b.unit);
      const key = `${a.unit} -> ${b.unit}`;
      if (!pkg.why.has(key))
        pkg.why.set(key, `${path.relative(ROOT, from)} imports ${path.relative(ROOT, to)}`);
    }
  }
  return packages;
}

/** The layer index of each unit under a package's `"layers"` declaration. */
function layerOf(layers, unit) {
  const isRootFile = !unit.endsWith('/');
  let wildcard;
  for (const [index, layer] of layers.entries()) {
    const members = Array.isArray(layer) ? layer : [layer];
    if (members.includes(unit)) return index;
    if (isRootFile && members.includes('*')) wildcard = index;
  }
  return wildcard;
}

/** Each broken rule 2 and 3, as lines to print. */
export function folderRuleBreaks(graph) {
  const breaks = [];
  for (const [pkg, units] of unitGraphs(graph)) {
    for (const component of cycles(units.graph)) {
      const loop = loopThrough(units.graph, component[0], new Set(component));
      breaks.push(`folder cycle in packages/${pkg}/src: ${loop.join(' -> ')}`);
      for (let i = 0; i + 1 < loop.length; i += 1) {
        breaks.push(`  ${units.why.get(`${loop[i]} -> ${loop[i + 1]}`)}`);
      }
    }
    const manifest = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'packages', pkg, 'package.json'), 'utf8'),
    );
    if (!Array.isArray(manifest.layers)) continue;
    for (const [unit, targets] of units.graph) {
      const from = layerOf(manifest.layers, unit);
      if (from === undefined) {
        breaks.push(
          `packages/${pkg}/src/${unit} is in no layer: add it to "layers" in packages/${pkg}/package.json`,
        );
        continue;
      }
      for (const target of targets) {
        const to = layerOf(manifest.layers, target);
        if (to !== undefined && to > from) {
          breaks.push(
            `upward import in packages/${pkg}/src: ${unit} (layer ${from}) imports ${target} (layer ${to})`,
          );
          breaks.push(`  ${units.why.get(`${unit} -> ${target}`)}`);
        }
      }
    }
  }
  return breaks;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const roots = [path.join(ROOT, 'packages'), path.join(ROOT, 'bench'), path.join(ROOT, 'scripts')];
  const graph = importGraph(roots);
  const found = cycles(graph);
  let failed = false;
  if (found.length === 0) {
    console.log(`import cycles: none in ${graph.size} modules`);
  } else {
    failed = true;
    const rel = (file) => path.relative(ROOT, file);
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
  const breaks = folderRuleBreaks(graph);
  if (breaks.length === 0) {
    console.log('folders: no cycle, and every declared layer imports only downward');
  } else {
    failed = true;
    for (const line of breaks) console.error(line);
  }
  if (failed) process.exit(1);
}
