/**
 * snapVariant against the real Starknet snap: the variants share one cached build (the one the
 * snap's chain tests use, so no extra build), carry exactly the URLs and timeout asked for, and
 * pass the shasum check snaps-simulation makes on install.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { getSnapChecksum, VirtualFile } from '@metamask/snaps-utils';

import { CLOSED_URL, REPO_ROOT, snapVariant, snapVariantDir } from '@l2wallet/testkit';

const SNAP_ROOT = path.join(REPO_ROOT, 'packages/snap');

// The first call may build the snap (a whole mm-snap build).
jest.setTimeout(300_000);

function variables(port: number): Record<string, string> {
  return {
    SNAP_MAINNET_RPC_URL: `${CLOSED_URL}/rpc`,
    SNAP_MAINNET_EXPLORER_URL: CLOSED_URL,
    SNAP_TESTNET_RPC_URL: `http://127.0.0.1:${port}/rpc`,
    SNAP_TESTNET_EXPLORER_URL: `http://127.0.0.1:${port}`,
    SNAP_MAINNET_PAYMASTER_URL: CLOSED_URL,
    SNAP_TESTNET_PAYMASTER_URL: CLOSED_URL,
    SNAP_RPC_TIMEOUT_MS: '4000',
  };
}

const read = (dir: string, file: string): string => readFileSync(path.join(dir, file), 'utf8');

describe('snapVariant', () => {
  it('makes per-URL variants of one build: only the URLs differ, and each shasum checks out', async () => {
    const first = await snapVariant({ snapRoot: SNAP_ROOT, env: variables(41001) });
    const second = await snapVariant({ snapRoot: SNAP_ROOT, env: variables(41002) });
    expect(first).toBe(snapVariantDir({ snapRoot: SNAP_ROOT, env: variables(41001) }));
    expect(second).not.toBe(first);

    const bundle = read(first, 'dist/bundle.js');
    expect(bundle).toContain('http://127.0.0.1:41001/rpc');
    expect(bundle).not.toContain('snap-variant.invalid');
    expect(read(second, 'dist/bundle.js')).toBe(
      bundle.split('127.0.0.1:41001').join('127.0.0.1:41002'),
    );

    for (const dir of [first, second]) {
      const manifest = JSON.parse(read(dir, 'snap.manifest.json'));
      const shasum = await getSnapChecksum({
        manifest: new VirtualFile({ value: '', result: manifest, path: 'snap.manifest.json' }),
        sourceCode: new VirtualFile({ value: read(dir, 'dist/bundle.js'), path: 'dist/bundle.js' }),
        svgIcon: new VirtualFile({ value: read(dir, 'images/icon.svg'), path: 'images/icon.svg' }),
        auxiliaryFiles: [],
        localizationFiles: [],
      });
      expect(manifest.source.shasum).toBe(shasum);
    }
  });

  it('leaves a variant in place while its build is unchanged, and marks it used', async () => {
    const dir = await snapVariant({ snapRoot: SNAP_ROOT, env: variables(41003) });
    const written = statSync(path.join(dir, 'dist/bundle.js')).mtimeMs;
    const used = statSync(path.join(dir, '.base')).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await snapVariant({ snapRoot: SNAP_ROOT, env: variables(41003) });
    expect(again).toBe(dir);
    expect(statSync(path.join(again, 'dist/bundle.js')).mtimeMs).toBe(written);
    // Its last use is renewed, so the pruning of unused variants keeps it.
    expect(statSync(path.join(again, '.base')).mtimeMs).toBeGreaterThan(used);
  });

  it('varies the node timeout like the URLs: one build, only the timeout differs', async () => {
    const timeout = (ms: string) => ({ ...variables(41004), SNAP_RPC_TIMEOUT_MS: ms });
    const usual = await snapVariant({ snapRoot: SNAP_ROOT, env: timeout('4000') });
    const short = await snapVariant({ snapRoot: SNAP_ROOT, env: timeout('1234') });
    expect(short).not.toBe(usual);
    // Both are copies of the same build (its stamp), so no second build was made.
    expect(read(short, '.base')).toBe(read(usual, '.base'));
    const bundle = read(usual, 'dist/bundle.js');
    expect(bundle.split('("4000")')).toHaveLength(2);
    expect(read(short, 'dist/bundle.js')).toBe(bundle.replace('("4000")', '("1234")'));
    expect(read(short, 'dist/bundle.js')).not.toContain('snap-variant');
  });
});
