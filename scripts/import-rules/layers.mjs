/**
 * The package rules of scripts/check-import-cycles.mjs, over the graph of ./graph.mjs: no unit
 * cycle in a package's src/, its declared `"layers"` (format and rules:
 * docs/architecture/README.md#the-import-rules), and no relative import across packages.
 */
import fs from 'node:fs';
import path from 'node:path';

import { cycles, loopThrough } from './graph.mjs';

/** A "layers" list read into unit -> layer index, the `*` layer and the nested declarations. */
function parseLayers(list, where, problems) {
  const scope = { index: new Map(), wildcard: undefined, nested: new Map() };
  if (!Array.isArray(list)) {
    problems.push(`${where}: "layers" must be a list, lowest layer first`);
    return scope;
  }
  const add = (unit, layer) => {
    if (unit === '*' && scope.wildcard === undefined) scope.wildcard = layer;
    else if (unit === '*' || scope.index.has(unit))
      problems.push(`${where}: ${unit} is listed twice`);
    else scope.index.set(unit, layer);
  };
  list.forEach((entry, layer) => {
    for (const unit of Array.isArray(entry) ? entry : [entry]) {
      if (typeof unit === 'string' && unit !== '') {
        add(unit, layer);
      } else if (unit !== null && typeof unit === 'object' && !Array.isArray(unit)) {
        for (const [folder, inner] of Object.entries(unit)) {
          if (!folder.endsWith('/')) {
            problems.push(`${where}: nested layers belong to a folder ("name/"), not "${folder}"`);
            continue;
          }
          add(folder, layer);
          scope.nested.set(folder, parseLayers(inner, `${where} > ${folder}`, problems));
        }
      } else {
        problems.push(
          `${where}: a layer holds "folder/", "file.ts", "*" or { "folder/": [layers] }, ` +
            `not ${JSON.stringify(unit)}`,
        );
      }
    }
  });
  return scope;
}

function layerOf(scope, unit) {
  return scope.index.get(unit) ?? (unit.endsWith('/') ? undefined : scope.wildcard);
}

/** The unit a path (segments under a folder) belongs to at `depth`: a file or `folder/`. */
function unitAt(segments, depth) {
  return depth === segments.length - 1 ? segments[depth] : `${segments[depth]}/`;
}

/** One folder's units, the imports between them, and a file-level import behind each (to print). */
function newScope(dir, declared) {
  return { dir, declared, units: new Set(), graph: new Map(), why: new Map() };
}

/**
 * A package's scopes: its src/ (always, for the cycle rule) and each folder with nested layers.
 * Every file is placed in the scopes on its path; every import inside src/ is ruled by the one
 * scope where its two ends part (none when they part inside an undeclared nested folder).
 */
function packageScopes(srcDir, declared, files, graph) {
  const scopes = new Map([['', newScope('', declared)]]);
  const segmentsOf = (file) => path.relative(srcDir, file).split(path.sep);
  const inSrc = (file) => !path.relative(srcDir, file).startsWith('..');
  for (const file of files) {
    const segments = segmentsOf(file);
    let dir = '';
    for (let depth = 0; depth < segments.length; depth += 1) {
      const scope = scopes.get(dir);
      const unit = unitAt(segments, depth);
      scope.units.add(unit);
      if (!scope.graph.has(unit)) scope.graph.set(unit, new Set());
      const nested = scope.declared?.nested.get(unit);
      if (!nested) break;
      dir += unit;
      if (!scopes.has(dir)) scopes.set(dir, newScope(dir, nested));
    }
  }
  for (const from of files) {
    const a = segmentsOf(from);
    for (const to of graph.get(from) ?? []) {
      if (!inSrc(to)) continue;
      const b = segmentsOf(to);
      let dir = '';
      for (let depth = 0; depth < Math.min(a.length, b.length); depth += 1) {
        const scope = scopes.get(dir);
        const [unitA, unitB] = [unitAt(a, depth), unitAt(b, depth)];
        if (unitA !== unitB) {
          scope.graph.get(unitA).add(unitB);
          const key = `${unitA} -> ${unitB}`;
          if (!scope.why.has(key)) scope.why.set(key, [from, to]);
          break;
        }
        if (!scope.declared?.nested.has(unitA)) break;
        dir += unitA;
      }
    }
  }
  return [...scopes.values()];
}

/** Each broken package rule (folder cycles, layers, relative imports across packages). */
export function packageRuleBreaks(root, graph, relative) {
  const packagesDir = path.join(root, 'packages');
  const rel = (file) => path.relative(root, file);
  const breaks = [];
  const byPackage = new Map();
  for (const file of graph.keys()) {
    const [pkg, ...rest] = path.relative(packagesDir, file).split(path.sep);
    if (pkg === '..' || rest.length === 0) continue;
    if (!byPackage.has(pkg)) byPackage.set(pkg, []);
    byPackage.get(pkg).push(file);
  }
  for (const [pkg, files] of byPackage) {
    for (const file of files) {
      for (const named of relative.get(file) ?? []) {
        const [other] = path.relative(packagesDir, named.path).split(path.sep);
        if (other === pkg || other === '..' || other === '') continue;
        breaks.push(
          `relative import across packages: ${rel(file)} imports '${named.spec}' ` +
            `(in packages/${other}): import a workspace package by its name`,
        );
      }
    }
    const manifestPath = path.join(packagesDir, pkg, 'package.json');
    if (!fs.existsSync(manifestPath)) continue;
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    const where = `packages/${pkg}/package.json`;
    const problems = [];
    const declared =
      manifest.layers === undefined ? undefined : parseLayers(manifest.layers, where, problems);
    breaks.push(...problems);
    const srcDir = path.join(packagesDir, pkg, 'src');
    const srcFiles = files.filter((file) => !path.relative(srcDir, file).startsWith('..'));
    for (const scope of packageScopes(srcDir, declared, srcFiles, graph)) {
      breaks.push(...scopeBreaks(`packages/${pkg}`, scope, rel));
    }
  }
  return breaks;
}

function scopeBreaks(pkgDir, scope, rel) {
  const breaks = [];
  const folder = `${pkgDir}/src${scope.dir ? `/${scope.dir.slice(0, -1)}` : ''}`;
  const why = (from, to) => {
    const [a, b] = scope.why.get(`${from} -> ${to}`);
    return `  ${rel(a)} imports ${rel(b)}`;
  };
  for (const component of cycles(scope.graph)) {
    const loop = loopThrough(scope.graph, component[0], new Set(component));
    breaks.push(`folder cycle in ${folder}: ${loop.join(' -> ')}`);
    for (let i = 0; i + 1 < loop.length; i += 1) breaks.push(why(loop[i], loop[i + 1]));
  }
  const declared = scope.declared;
  if (!declared) return breaks;
  const place = scope.dir ? `the "${scope.dir}" layers` : '"layers"';
  for (const unit of declared.index.keys()) {
    if (!scope.units.has(unit)) {
      breaks.push(`${pkgDir}/package.json: ${place} list ${unit}, but ${folder} has no such unit`);
    }
  }
  for (const [unit, targets] of scope.graph) {
    const from = layerOf(declared, unit);
    if (from === undefined) {
      breaks.push(`${folder}/${unit} is in no layer: add it to ${place} in ${pkgDir}/package.json`);
      continue;
    }
    for (const target of targets) {
      const to = layerOf(declared, target);
      if (to !== undefined && to > from) {
        breaks.push(
          `upward import in ${folder}: ${unit} (layer ${from}) imports ${target} (layer ${to})`,
        );
        breaks.push(why(unit, target));
      }
    }
  }
  return breaks;
}
