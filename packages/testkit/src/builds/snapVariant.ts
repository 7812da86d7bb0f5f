/**
 * Snap variants that differ only in their URL and timeout build variables (a node or explorer
 * per test, per jest worker, per port; a short timeout for a test of a node that never answers)
 * without a build each: one cached `mm-snap build` (snapBuild.ts) with a marker in place of every
 * such variable, then per variant a copy with the markers replaced and the manifest's shasum
 * recomputed. How markers work: docs/architecture/testkit.md#snap-variants.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { markUsed, pruneUnused } from './cacheFolders';
import { buildSnapVariant, SNAP_BUILD_CACHE, type SnapBuildOptions } from './snapBuild';

/** Variants kept per snap package beyond those in recent use (see pruneUnused). */
const KEEP_VARIANTS = 32;

/** One variable of a variant: `marker` stands in the build's bundle, `value` in the variant's. */
type Swap = { key: string; marker: string; value: string };

/** Whether `value` is an http(s) URL as written (starts with its origin). */
function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return /^https?:$/u.test(url.protocol) && value.startsWith(url.origin);
  } catch {
    return false;
  }
}

const isTimeout = (key: string, value: string): boolean =>
  /_TIMEOUT_MS$/u.test(key) && /^\d+$/u.test(value);

/** Text no bundle holds but as a marker: a leftover one means a variable was not swapped. */
const MARKER_TEXT = 'l2wallet-snap-variant';

/** The build's variables (a marker per URL or timeout variable) and the swaps. */
function splitVariables(env: Record<string, string>): {
  buildEnv: Record<string, string>;
  swaps: Swap[];
} {
  const buildEnv: Record<string, string> = {};
  const swaps: Swap[] = [];
  for (const key of Object.keys(env).sort()) {
    const value = env[key];
    if (isUrl(value)) {
      // A host no resolver answers (.invalid), unique per variable, so no other text matches.
      const marker = `http://${key.toLowerCase().replace(/_/gu, '-')}.${MARKER_TEXT}.invalid`;
      buildEnv[key] = marker;
      swaps.push({ key, marker, value });
    } else if (isTimeout(key, value)) {
      buildEnv[key] = `${MARKER_TEXT}:${key}`;
      // The whole string literal, quotes included: the variant holds the number as a string.
      swaps.push({ key, marker: JSON.stringify(buildEnv[key]), value: JSON.stringify(value) });
    } else {
      buildEnv[key] = value;
    }
  }
  return { buildEnv, swaps };
}

function keyOf(snapRoot: string, env: Record<string, string>): string {
  return createHash('sha256')
    .update(path.resolve(snapRoot))
    .update(
      JSON.stringify(
        Object.keys(env)
          .sort()
          .map((key) => [key, env[key]]),
      ),
    )
    .digest('hex')
    .slice(0, 16);
}

/** The folder of the variant of `snapRoot` with `env` (a pure function of both). */
export function snapVariantDir({ snapRoot, env }: SnapBuildOptions): string {
  const name = path.basename(path.resolve(snapRoot));
  return path.join(SNAP_BUILD_CACHE, 'variants', `${name}-${keyOf(snapRoot, env)}`);
}

type Manifest = {
  source: { shasum: string; location: { npm: { filePath: string; iconPath?: string } } };
};

/** The shasum snaps-simulation recomputes on install (snaps-utils getSnapChecksum). */
async function shasumOf(manifest: Manifest, bundle: string, icon: string | undefined) {
  const { getSnapChecksum, VirtualFile } = require('@metamask/snaps-utils') as {
    getSnapChecksum(files: unknown): Promise<string>;
    VirtualFile: new (options: { value: string; result?: unknown; path: string }) => unknown;
  };
  const { filePath, iconPath } = manifest.source.location.npm;
  return getSnapChecksum({
    manifest: new VirtualFile({
      value: JSON.stringify(manifest),
      result: manifest,
      path: 'snap.manifest.json',
    }),
    sourceCode: new VirtualFile({ value: bundle, path: path.posix.normalize(filePath) }),
    svgIcon:
      icon === undefined || !iconPath
        ? undefined
        : new VirtualFile({ value: icon, path: path.posix.normalize(iconPath) }),
    auxiliaryFiles: [],
    localizationFiles: [],
  });
}

/**
 * The snap of `snapRoot` as if built with `env`, in a folder of its own (what snaps-simulation
 * installs from: manifest with a matching shasum, the bundle, the icon, package.json). Rewritten
 * only when the cached build changed; a new folder replaces the old one in one rename, so a
 * reader never sees a bundle and a manifest of two builds.
 */
export async function snapVariant(options: SnapBuildOptions): Promise<string> {
  const { buildEnv, swaps } = splitVariables(options.env);
  const buildDir = await buildSnapVariant({ snapRoot: options.snapRoot, env: buildEnv });
  const buildStamp = fs.readFileSync(path.join(buildDir, '.stamp'), 'utf8');
  const dir = snapVariantDir(options);
  const baseFile = path.join(dir, '.base');
  if (fs.existsSync(baseFile) && fs.readFileSync(baseFile, 'utf8') === buildStamp) {
    markUsed(dir, '.base');
    return dir;
  }

  const manifest = JSON.parse(
    fs.readFileSync(path.join(buildDir, 'snap.manifest.json'), 'utf8'),
  ) as Manifest;
  const { filePath, iconPath } = manifest.source.location.npm;
  let bundle = fs.readFileSync(path.join(buildDir, filePath), 'utf8');
  for (const { key, marker, value } of swaps) {
    if (!bundle.includes(marker)) {
      throw new Error(`${key} does not appear in the bundle of ${buildDir}: it cannot be varied`);
    }
    bundle = bundle.split(marker).join(value);
  }
  if (bundle.includes(MARKER_TEXT)) {
    throw new Error(`A variable's marker is left in the bundle of ${buildDir}`);
  }
  const icon = iconPath ? fs.readFileSync(path.join(buildDir, iconPath), 'utf8') : undefined;
  manifest.source.shasum = await shasumOf(manifest, bundle, icon);

  const staging = `${dir}.${process.pid}.${Date.now()}`;
  const write = (file: string, content: string): void => {
    fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
    fs.writeFileSync(path.join(staging, file), content);
  };
  write('snap.manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  write(filePath, bundle);
  if (iconPath && icon !== undefined) write(iconPath, icon);
  write('package.json', fs.readFileSync(path.join(buildDir, 'package.json'), 'utf8'));
  write('.base', buildStamp);
  const old = `${staging}.old`;
  try {
    if (fs.existsSync(dir)) fs.renameSync(dir, old);
  } catch {
    // Another process replaced it meanwhile: ours replaces theirs below.
  }
  try {
    fs.renameSync(staging, dir);
  } catch {
    // Another process put the same variant in place first.
    fs.rmSync(staging, { recursive: true, force: true });
  }
  fs.rmSync(old, { recursive: true, force: true });
  pruneUnused(dir, '.base', KEEP_VARIANTS);
  return dir;
}
