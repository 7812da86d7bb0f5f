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

/** Contract allowlist: the contracts a call targets (eth_call/eth_estimateGas `to`, eth_getLogs `address`). */
export function contractsAllowed(record: KeyRecord, method: string, params: unknown[]): boolean {
  const allowed = record.allow.contracts;
  if (allowed.length === 0) return true;
  const first = params[0] as Record<string, unknown> | undefined;
  let targets: unknown[] = [];
  if (method === 'eth_call' || method === 'eth_estimateGas') targets = [first?.to];
  else if (method === 'eth_getLogs') {
    const a = first?.address;
    targets = Array.isArray(a) ? a : [a];
  } else return true;
  return targets.every((t) => typeof t === 'string' && allowed.includes(t.toLowerCase()));
}
