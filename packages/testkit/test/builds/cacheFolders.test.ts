/**
 * The cached snap builds and variants are pruned by last use, never by count alone: a jest run
 * writes more variants than the count kept, and the ones in use must survive it.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { markUsed, pruneUnused } from '../../src/builds/cacheFolders';

const HOUR_MS = 3_600_000;

let parent: string;

beforeEach(() => {
  parent = mkdtempSync(path.join(tmpdir(), 'cache-folders-'));
});

afterEach(() => {
  rmSync(parent, { recursive: true, force: true });
});

/** A folder `snap-<16 hex>` whose marker says it was last used `ageMs` ago. */
function folder(index: number, ageMs: number, name = 'snap'): string {
  const dir = path.join(parent, `${name}-${index.toString(16).padStart(16, '0')}`);
  mkdirSync(dir);
  const marker = path.join(dir, '.base');
  writeFileSync(marker, 'stamp');
  const when = new Date(Date.now() - ageMs);
  utimesSync(marker, when, when);
  return dir;
}

describe('pruneUnused', () => {
  it('keeps every folder used within the hour, however many there are', () => {
    const recent = Array.from({ length: 6 }, (_, index) => folder(index + 1, index * 1000));
    pruneUnused(recent[0], '.base', 2);
    expect(recent.filter((dir) => existsSync(dir))).toEqual(recent);
  });

  it('removes folders unused for over an hour beyond the `keep` most recent, and only those', () => {
    const current = folder(1, 0);
    const recent = folder(2, 60_000);
    const oldKept = folder(3, 2 * HOUR_MS);
    const oldRemoved = [folder(4, 3 * HOUR_MS), folder(5, 4 * HOUR_MS)];
    const otherPackage = folder(6, 5 * HOUR_MS, 'keyring-snap');
    pruneUnused(current, '.base', 3);
    expect([current, recent, oldKept, otherPackage].every((dir) => existsSync(dir))).toBe(true);
    expect(oldRemoved.some((dir) => existsSync(dir))).toBe(false);
  });

  it('markUsed renews a folder, which then outlives older ones', () => {
    const current = folder(1, 0);
    const renewed = folder(2, 5 * HOUR_MS);
    const stale = folder(3, 2 * HOUR_MS);
    markUsed(renewed, '.base');
    pruneUnused(current, '.base', 1);
    expect(existsSync(renewed)).toBe(true);
    expect(existsSync(stale)).toBe(false);
  });
});
