/**
 * Changing and showing a key's controls (the CLI's `keys allow`, `keys jwt`, `keys show`, the
 * config's `keys`, the usage report): new records, never a secret or its hash in what is shown.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { jwtAlgorithm } from './access';
import {
  ALLOWLIST_TYPES,
  type Allowlists,
  checkAllowlists,
  type JwtPublicKey,
  type KeyRecord,
  MAX_JWT_KEYS,
  type NewKeyOptions,
  recordFor,
  secretRequired,
} from './keys';
import type { KeyRegistry } from './registry';

/** A key's controls as shown: no secret, no hash of one; public keys by name and fingerprint. */
export interface Controls {
  secret: { set: boolean; required: boolean };
  jwt: { required: boolean; publicKeys: { name: string; alg: string; fingerprint: string }[] };
  allow: Required<Allowlists>;
}

/** The allowlists of a record (older records lack the User-Agent list). */
export function allowlistsOf(record: KeyRecord): Required<Allowlists> {
  return { ...record.allow, userAgents: record.allow.userAgents ?? [] };
}

export function controlsOf(record: KeyRecord): Controls {
  return {
    secret: { set: record.secretHash !== null, required: secretRequired(record) },
    jwt: {
      required: record.jwt?.require ?? false,
      publicKeys: (record.jwt?.keys ?? []).map(({ name, pem }) => {
        const { alg, fingerprint } = describePublicKey(pem);
        return { name, alg, fingerprint };
      }),
    },
    allow: allowlistsOf(record),
  };
}

/**
 * A PEM public key's JWT algorithm and fingerprint (base64 SHA-256 of its DER SPKI, as Infura
 * shows it). Throws when it is not an RSA or P-256 public key.
 */
export function describePublicKey(pem: string): { alg: string; fingerprint: string } {
  let key;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new Error('not a PEM public key');
  }
  const alg = jwtAlgorithm(key);
  if (!alg) throw new Error('a JWT public key must be RSA (RS256) or EC P-256 (ES256)');
  const der = key.export({ type: 'spki', format: 'der' });
  return { alg, fingerprint: createHash('sha256').update(der).digest('base64') };
}

/** The record with entries added to its allowlists (after clearing them all when `reset`). */
export function withAllowlists(
  record: KeyRecord,
  added: Partial<Allowlists>,
  reset = false,
): KeyRecord {
  const current = allowlistsOf(record);
  const next = {} as Required<Allowlists>;
  for (const type of ALLOWLIST_TYPES) {
    next[type] = [...(reset ? [] : current[type]), ...(added[type] ?? [])];
  }
  return { ...record, allow: checkAllowlists(next) };
}

/** The record's JWT settings changed: keys added or removed by name, JWTs required or not. */
export function withJwt(
  record: KeyRecord,
  change: { add?: JwtPublicKey[]; remove?: string[]; require?: boolean },
): KeyRecord {
  let keys = (record.jwt?.keys ?? []).filter((k) => !change.remove?.includes(k.name));
  for (const key of change.add ?? []) {
    if (!/^[\w.-]{1,64}$/.test(key.name)) {
      throw new Error(`a public key name is 1 to 64 letters, digits, _ . or - (${key.name})`);
    }
    describePublicKey(key.pem);
    keys = [...keys.filter((k) => k.name !== key.name), { name: key.name, pem: key.pem.trim() }];
  }
  if (keys.length > MAX_JWT_KEYS) {
    throw new Error(`a key holds at most ${MAX_JWT_KEYS} JWT public keys`);
  }
  const require = change.require ?? record.jwt?.require ?? false;
  if (require && keys.length === 0) {
    throw new Error('JWTs cannot be required before a public key is added');
  }
  return { ...record, jwt: { require, keys } };
}

/**
 * A key defined in the config: by the SHA-256 of the API key (the key itself never goes in a
 * file) and of its secret; its controls there replace the stored ones when `serve` starts.
 */
export interface ConfigKey extends Omit<NewKeyOptions, 'secret' | 'jwt'> {
  sha256: string;
  secretSha256?: string;
  jwt?: { require?: boolean; publicKeys: JwtPublicKey[] };
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Throws a clear error when a config key is malformed (names it by its position). */
export function checkConfigKey(entry: ConfigKey, index: number): KeyRecord {
  const where = `keys[${index}]`;
  if (!SHA256_HEX.test(String(entry?.sha256))) {
    throw new Error(`${where}.sha256 must be the SHA-256 of the API key, 64 lowercase hex`);
  }
  if (entry.secretSha256 !== undefined && !SHA256_HEX.test(String(entry.secretSha256))) {
    throw new Error(`${where}.secretSha256 must be the SHA-256 of the secret, 64 lowercase hex`);
  }
  try {
    const base = recordFor(entry.sha256, entry.secretSha256 ?? null, { ...entry, jwt: undefined });
    return withJwt(base, {
      add: entry.jwt?.publicKeys ?? [],
      require: entry.jwt?.require ?? false,
    });
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`);
  }
}

/** Writes the config's keys to the registry: new ones added, existing ones' controls replaced. */
export async function applyConfigKeys(registry: KeyRegistry, entries: ConfigKey[]): Promise<void> {
  for (const [index, entry] of entries.entries()) {
    const record = checkConfigKey(entry, index);
    const stored = await registry.get(record.hash);
    if (!stored) await registry.add(record);
    else await registry.update({ ...stored, ...record, createdAt: stored.createdAt });
  }
}
