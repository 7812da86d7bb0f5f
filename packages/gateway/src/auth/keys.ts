/**
 * API keys: 32 hex characters handed out once. Stores keep only SHA-256 hashes of the key and of
 * the optional secret; `id` (a prefix of the hash) is the label logs and `keys list` show.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { PLANS, type PlanName } from './plans';

export interface Allowlists {
  origins: string[];
  methods: string[];
  contracts: string[];
}

export interface KeyRecord {
  hash: string;
  id: string;
  plan: PlanName;
  dailyCredits: number;
  creditsPerSecond: number;
  failover: boolean;
  secretHash: string | null;
  allow: Allowlists;
  createdAt: string;
  revokedAt: string | null;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
export const KEY_FORMAT = /^[0-9a-f]{32}$/;

export interface NewKeyOptions {
  plan: PlanName;
  dailyCredits?: number;
  creditsPerSecond?: number;
  failover?: boolean;
  secret?: boolean;
  allow?: Partial<Allowlists>;
}

/** A fresh key (and secret); the caller prints them once and stores only `record`. */
export function newKey(options: NewKeyOptions): {
  key: string;
  secret?: string;
  record: KeyRecord;
} {
  const key = randomBytes(16).toString('hex');
  const secret = options.secret ? randomBytes(16).toString('hex') : undefined;
  const plan = PLANS[options.plan];
  const hash = sha256(key);
  return {
    key,
    secret,
    record: {
      hash,
      id: hash.slice(0, 12),
      plan: options.plan,
      dailyCredits: options.dailyCredits ?? plan.dailyCredits,
      creditsPerSecond: options.creditsPerSecond ?? plan.creditsPerSecond,
      failover: options.failover ?? plan.failover,
      secretHash: secret ? sha256(secret) : null,
      allow: {
        origins: options.allow?.origins ?? [],
        methods: options.allow?.methods ?? [],
        contracts: (options.allow?.contracts ?? []).map((a) => a.toLowerCase()),
      },
      createdAt: new Date().toISOString(),
      revokedAt: null,
    },
  };
}

/** Basic auth with an empty user name and the secret as password, compared by hash. */
export function secretMatches(record: KeyRecord, authorization: string | undefined): boolean {
  if (!record.secretHash) return true;
  if (!authorization?.startsWith('Basic ')) return false;
  const decoded = Buffer.from(authorization.slice(6), 'base64').toString();
  const colon = decoded.indexOf(':');
  if (colon !== 0) return false;
  const given = Buffer.from(sha256(decoded.slice(1)), 'hex');
  return timingSafeEqual(given, Buffer.from(record.secretHash, 'hex'));
}

/** Infura's origin allowlist: exact origins, or `*.example.com` for any subdomain. */
export function originAllowed(record: KeyRecord, origin: string | undefined): boolean {
  if (record.allow.origins.length === 0) return true;
  if (!origin) return false;
  let host = origin;
  try {
    host = new URL(origin).host;
  } catch {
    // not a URL: compare as given
  }
  return record.allow.origins.some((allowed) => {
    if (allowed === origin || allowed === host) return true;
    if (allowed.startsWith('*.')) return host.endsWith(allowed.slice(1));
    return false;
  });
}

export function methodAllowed(record: KeyRecord, method: string): boolean {
  return record.allow.methods.length === 0 || record.allow.methods.includes(method);
}

/**
 * Contract allowlist: whether every contract a call targets (jsonrpc/targets.ts) is listed.
 * `targets` undefined: the call targets no contract; null: it cannot be told, so a key with a
 * list refuses it. Addresses are compared as numbers (an EVM address in any case, a Starknet
 * felt with or without leading zeros).
 */
export function contractsAllowed(record: KeyRecord, targets: string[] | null | undefined): boolean {
  const allowed = record.allow.contracts;
  if (allowed.length === 0 || targets === undefined) return true;
  if (targets === null) return false;
  const listed = new Set(allowed.map(addressKey));
  return targets.every((target) => listed.has(addressKey(target)));
}

/** An address as a comparable key: its value for hex, else its lowercase text. */
function addressKey(address: string): string {
  return /^0x[0-9a-fA-F]{1,64}$/.test(address)
    ? BigInt(address).toString(16)
    : address.toLowerCase();
}
