/**
 * The workspace's module graph, for scripts/check-import-cycles.mjs: every source file under the
 * given folders and the files it imports. Edges are the relative imports, `export ... from`,
 * require() and import() of a literal, `import('x').T` types, and imports of a workspace package
 * by name: `@scope/pkg` (its TypeScript entry, src/index.ts, when it has one) or a path inside
 * it (`@scope/pkg/src/x`). The TypeScript parser reads the files; nothing is compiled or run.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/u;
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

/**
 * The workspace's packages (each folder of `root`/packages with a package.json): name -> its
 * folder and the file its importers reach by name (its TypeScript entry when there is one).
 */
export function workspacePackages(root) {
  const packages = new Map();
  const packagesDir = path.join(root, 'packages');
  if (!fs.existsSync(packagesDir)) return packages;
  for (const name of fs.readdirSync(packagesDir)) {
    const dir = path.join(packagesDir, name);
    const manifest = path.join(dir, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    const candidates = ['src/index.ts', 'src/index.tsx', 'index.ts', pkg.main ?? 'index.js'];
    const entry = candidates.map((c) => path.join(dir, c)).find((c) => fs.existsSync(c));
    if (pkg.name) packages.set(pkg.name, { dir, entry });
  }
  return packages;
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

/** The module specifiers `file` names (import, export from, require, import(), import types). */
export function specifiers(file) {
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

/** The workspace file a package-name specifier reaches (`@scope/pkg` or `@scope/pkg/sub/path`). */
function resolvePackage(packages, spec) {
  const parts = spec.split('/');
  const nameLength = spec.startsWith('@') ? 2 : 1;
  const pkg = packages.get(parts.slice(0, nameLength).join('/'));
  if (!pkg) return undefined;
  const rest = parts.slice(nameLength);
  return rest.length === 0 ? pkg.entry : resolveFile(path.join(pkg.dir, ...rest));
}

/**
 * Every source file under `dirs` -> the workspace source files it imports, and each file's
 * relative specifiers with the path each names (resolved or not), for the cross-package rule.
 */
export function importGraph(root, dirs) {
  const packages = workspacePackages(root);
  const files = dirs.filter((dir) => fs.existsSync(dir)).flatMap((dir) => walk(dir, []));
  const graph = new Map();
  const relative = new Map();
  for (const file of files) {
    const targets = new Set();
    const named = [];
    for (const spec of specifiers(file)) {
      let target;
      if (spec.startsWith('.')) {
        const base = path.resolve(path.dirname(file), spec);
        named.push({ spec, path: base });
        target = resolveFile(base);
      } else {
        target = resolvePackage(packages, spec);
      }
      if (target && SOURCE.test(target)) targets.add(target);
    }
    graph.set(file, targets);
    relative.set(file, named);
  }
  return { graph, relative };
}

/** Strongly connected components with more than one node, or a node importing itself. */
export function cycles(graph) {
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

/** The shortest path from `from` back to itself inside one component, to print. */
export function loopThrough(graph, from, members) {
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
