import type { SnapConfig } from '@metamask/snaps-cli';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The one chain the snap is built for (README "Chain config"). Each KEYRING_* shell variable
 * overrides a default that points at the local stack of `npm start`: anvil on 8546 with the
 * ERC-4337 v0.6 contracts deployed from anvil's first account on a fresh chain, Alto on 4337.
 */
const allowedOrigins = (process.env.KEYRING_ALLOWED_ORIGINS ?? 'http://localhost:8000')
  .split(',')
  .map((origin) => origin.trim())
  .filter((origin) => origin.length > 0);

/**
 * The sites that may call the snap are a build variable: the manifest being built (in the
 * working directory, as mm-snap resolves it) lists exactly them for endowment:rpc and
 * endowment:keyring, and the bundle gets the same list for its per-method checks.
 */
const manifestPath = resolve('snap.manifest.json');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const permissions = manifest.initialPermissions;
if (
  JSON.stringify(permissions['endowment:rpc'].allowedOrigins) !== JSON.stringify(allowedOrigins) ||
  JSON.stringify(permissions['endowment:keyring'].allowedOrigins) !== JSON.stringify(allowedOrigins)
) {
  permissions['endowment:rpc'].allowedOrigins = allowedOrigins;
  permissions['endowment:keyring'].allowedOrigins = allowedOrigins;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
}

const config: SnapConfig = {
  input: 'src/index.ts',
  server: { port: 8086 },
  stats: { buffer: false },
  environment: {
    KEYRING_CHAIN_ID: process.env.KEYRING_CHAIN_ID ?? '31337',
    KEYRING_RPC_URL: process.env.KEYRING_RPC_URL ?? 'http://127.0.0.1:8546',
    KEYRING_BUNDLER_URL: process.env.KEYRING_BUNDLER_URL ?? 'http://127.0.0.1:4337',
    KEYRING_ENTRY_POINT:
      process.env.KEYRING_ENTRY_POINT ?? '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    KEYRING_FACTORY: process.env.KEYRING_FACTORY ?? '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
    KEYRING_PAYMASTER_URL: process.env.KEYRING_PAYMASTER_URL ?? '',
    KEYRING_ALLOWED_ORIGINS: allowedOrigins.join(','),
    KEYRING_RPC_TIMEOUT_MS: process.env.KEYRING_RPC_TIMEOUT_MS ?? '20000',
  },
};

export default config;
