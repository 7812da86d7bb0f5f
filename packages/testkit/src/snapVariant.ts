/**
 * Snap variants that differ only in their URL build variables (a node or explorer per test,
 * per jest worker, per port) without a build each: one real `mm-snap build` (snapBuild.ts) with
 * a marker origin in place of every URL variable, then per variant a copy whose bundle has the
 * markers replaced by the wanted origins and whose manifest carries the new shasum, computed by
 * @metamask/snaps-utils as snaps-simulation checks it. A variant takes milliseconds; the build is
 * cached and shared by every variant (and rebuilt only when the snap's sources change).
 *
 * Variables that are not http(s) URLs (say, a timeout) go into the build as they are, so they
 * are part of the build's key.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { buildSnapVariant, SNAP_BUILD_CACHE, type SnapBuildOptions } from './snapBuild';

/** Builds kept per snap package; older variants are removed after a new one is written. */
const KEEP_VARIANTS = 32;

type UrlVariable = { key: string; marker: string; origin: string };

/** `value`'s origin when it is an http(s) URL that starts with it, else undefined. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return /^https?:$/u.test(url.protocol) && value.startsWith(url.origin) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The build's variables (a marker origin per URL variable, its path kept) and the swaps. */
function splitVariables(env: Record<string, string>): {
  buildEnv: Record<string, string>;
  urls: UrlVariable[];
} {
  const buildEnv: Record<string, string> = {};
  const urls: UrlVariable[] = [];
  for (const key of Object.keys(env).sort()) {
    const value = env[key];
    const origin = originOf(value);
    if (origin === undefined) {
      buildEnv[key] = value;
      continue;
    }
    // A host no resolver answers (.invalid), unique per variable, so no other text matches.
    const marker = `http://${key.toLowerCase().replace(/_/gu, '-')}.snap-variant.invalid`;
    buildEnv[key] = `${marker}${value.slice(origin.length)}`;
    urls.push({ key, marker, origin });
  }
  return { buildEnv, urls };
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

function prune(dir: string): void {
  const parent = path.dirname(dir);
  const prefix = `${path.basename(dir).replace(/-[0-9a-f]{16}$/u, '')}-`;
  const siblings = fs
    .readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(prefix))
    .map((entry) => path.join(parent, entry.name))
    .filter((full) => full !== dir && fs.existsSync(path.join(full, '.base')))
    .map((full) => ({ full, time: fs.statSync(path.join(full, '.base')).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const { full } of siblings.slice(KEEP_VARIANTS - 1)) {
    fs.rmSync(full, { recursive: true, force: true });
  }
}

/**
 * The snap of `snapRoot` as if built with `env`, in a folder of its own (what snaps-simulation
 * installs from: manifest with a matching shasum, the bundle, the icon, package.json). Rewritten
 * only when the cached build changed; a new folder replaces the old one in one rename, so a
 * reader never sees a bundle and a manifest of two builds.
 */
export async function snapVariant(options: SnapBuildOptions): Promise<string> {
  const { buildEnv, urls } = splitVariables(options.env);
  const buildDir = await buildSnapVariant({ snapRoot: options.snapRoot, env: buildEnv });
  const buildStamp = fs.readFileSync(path.join(buildDir, '.stamp'), 'utf8');
  const dir = snapVariantDir(options);
  const baseFile = path.join(dir, '.base');
  if (fs.existsSync(baseFile) && fs.readFileSync(baseFile, 'utf8') === buildStamp) return dir;

  const manifest = JSON.parse(
    fs.readFileSync(path.join(buildDir, 'snap.manifest.json'), 'utf8'),
  ) as Manifest;
  const { filePath, iconPath } = manifest.source.location.npm;
  let bundle = fs.readFileSync(path.join(buildDir, filePath), 'utf8');
  for (const { key, marker, origin } of urls) {
    if (!bundle.includes(marker)) {
      throw new Error(`${key} does not appear in the bundle of ${buildDir}: it cannot be varied`);
    }
    bundle = bundle.split(marker).join(origin);
  }
  if (bundle.includes('.snap-variant.invalid')) {
    throw new Error(`A marker URL is left in the bundle of ${buildDir}`);
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
  prune(dir);
  return dir;
}
