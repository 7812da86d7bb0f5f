/**
 * The cached builds (snapBuild.ts, snapVariant.ts, siteBuild.ts): a lock per build, taken by
 * making a folder. The cached snap builds and variants are folders side by side,
 * one per key. A folder in use is never removed: a test file serves its folder for as long as it
 * runs, and one jest run writes many variants (a devnet port per chain test file), so a bound on
 * the count alone once removed the offline variant that every snaps-jest file was serving.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A folder used this recently is kept, whatever the count. */
const IN_USE_MS = 3_600_000;

/** Marks the folder as used now (the mtime of its `marker` file), so pruneUnused keeps it. */
export function markUsed(dir: string, marker: string): void {
  const now = new Date();
  try {
    fs.utimesSync(path.join(dir, marker), now, now);
  } catch {
    // replaced meanwhile by another process: its new file is as recent
  }
}

/**
 * Removes the sibling folders of `dir` (same package name, another key) that have not been
 * used for IN_USE_MS, keeping the `keep` most recently used ones whatever their age. A folder's
 * last use is the mtime of its `marker` file (markUsed).
 */
export function pruneUnused(dir: string, marker: string, keep: number): void {
  const parent = path.dirname(dir);
  const prefix = `${path.basename(dir).replace(/-[0-9a-f]{16}$/u, '')}-`;
  const now = Date.now();
  const siblings = fs
    .readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(prefix))
    .map((entry) => path.join(parent, entry.name))
    .filter((full) => full !== dir && fs.existsSync(path.join(full, marker)))
    .map((full) => ({ full, time: fs.statSync(path.join(full, marker)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const { full, time } of siblings.slice(keep - 1)) {
    if (now - time > IN_USE_MS) fs.rmSync(full, { recursive: true, force: true });
  }
}

/**
 * Takes the lock `lockDir` (made as a folder: atomic across processes), or says it is held. A
 * lock older than `staleMs` is left over from a killed run and removed, so the next try takes it.
 */
export function tryLock(lockDir: string, staleMs: number): boolean {
  try {
    fs.mkdirSync(lockDir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - fs.statSync(lockDir).mtimeMs > staleMs) {
        fs.rmSync(lockDir, { recursive: true, force: true });
      }
    } catch {
      // released meanwhile
    }
    return false;
  }
}

/** The newest modification time of any file under `dir` (a build's sources). */
export function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(file) : fs.statSync(file).mtimeMs);
  }
  return newest;
}
