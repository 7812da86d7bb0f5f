/**
 * API keys: 32 hex characters handed out once. Stores keep only SHA-256 hashes of the key and of
 * the optional secret; `id` (a prefix of the hash) is the label logs and `keys list` show.
 */
import { createHash, randomBytes } from 'node:crypto';
import { PLANS, type PlanName } from './plans';

export interface Allowlists {
  origins: string[];
  methods: string[];
  contracts: string[];
  /** User-Agent substrings (absent in records made before it existed). */
  userAgents?: string[];
}

/** The allowlist types, their names in messages, CLI flags and JWT claims. */
export const ALLOWLIST_TYPES = ['origins', 'userAgents', 'contracts', 'methods'] as const;
export type AllowlistType = (typeof ALLOWLIST_TYPES)[number];
/** Entries a key may hold per allowlist type, and public keys for JWTs (as Infura's). */
export const MAX_ALLOWLIST_ENTRIES = 30;
export const MAX_JWT_KEYS = 3;

/** A public key that signs the key's JWTs: PEM (SPKI), RS256 or ES256. */
export interface JwtPublicKey {
  name: string;
  pem: string;
}

export interface KeyRecord {
  hash: string;
  id: string;
  plan: PlanName;
  dailyCredits: number;
  creditsPerSecond: number;
  failover: boolean;
  secretHash: string | null;
  /** Every request must give the secret (absent in older records: required when there is one). */
  requireSecret?: boolean;
  allow: Allowlists;
  /** Public keys for JWTs, and whether every request must carry one. */
  jwt?: { require: boolean; keys: JwtPublicKey[] };
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
  /** Make a secret; `requireSecret` (default: true with a secret) makes every request give it. */
  secret?: boolean;
  requireSecret?: boolean;
  allow?: Partial<Allowlists>;
  jwt?: { require: boolean; keys: JwtPublicKey[] };
}

/** A fresh key (and secret); the caller prints them once and stores only `record`. */
export function newKey(options: NewKeyOptions): {
  key: string;
  secret?: string;
  record: KeyRecord;
} {
  const key = randomBytes(16).toString('hex');
  const secret =
    options.secret || options.requireSecret ? randomBytes(16).toString('hex') : undefined;
  return { key, secret, record: recordFor(sha256(key), secret ? sha256(secret) : null, options) };
}

/** The record of the key whose SHA-256 is `hash` (and of its secret's, if any). */
export function recordFor(
  hash: string,
  secretHash: string | null,
  options: NewKeyOptions,
): KeyRecord {
  const plan = PLANS[options.plan];
  return {
    hash,
    id: hash.slice(0, 12),
    plan: options.plan,
    dailyCredits: options.dailyCredits ?? plan.dailyCredits,
    creditsPerSecond: options.creditsPerSecond ?? plan.creditsPerSecond,
    failover: options.failover ?? plan.failover,
    secretHash,
    requireSecret: secretHash !== null && options.requireSecret !== false,
    allow: checkAllowlists({
      origins: options.allow?.origins ?? [],
      methods: options.allow?.methods ?? [],
      contracts: options.allow?.contracts ?? [],
      userAgents: options.allow?.userAgents ?? [],
    }),
    jwt: options.jwt ?? { require: false, keys: [] },
    createdAt: new Date().toISOString(),
    revokedAt: null,
  };
}

/**
 * Allowlists as stored: contracts lowercased, at most MAX_ALLOWLIST_ENTRIES per type, no empty
 * entry. Throws an Error naming the list otherwise.
 */
export function checkAllowlists(allow: Required<Allowlists>): Required<Allowlists> {
  for (const type of ALLOWLIST_TYPES) {
    const list = allow[type];
    if (!Array.isArray(list) || !list.every((e) => typeof e === 'string' && e.trim() !== '')) {
      throw new Error(`the ${type} allowlist must be a list of non-empty strings`);
    }
    if (list.length > MAX_ALLOWLIST_ENTRIES) {
      throw new Error(`the ${type} allowlist holds at most ${MAX_ALLOWLIST_ENTRIES} entries`);
    }
  }
  for (const contract of allow.contracts) {
    if (!/^0x[0-9a-fA-F]{1,64}$/.test(contract)) {
      throw new Error(`${contract} is not a contract address (0x and 1 to 64 hex digits)`);
    }
  }
  return {
    origins: [...new Set(allow.origins)],
    methods: [...new Set(allow.methods)],
    contracts: [...new Set(allow.contracts.map((a) => a.toLowerCase()))],
    userAgents: [...new Set(allow.userAgents)],
  };
}

/** Whether every request must give the key's secret (older records: whenever it has one). */
export const secretRequired = (record: KeyRecord): boolean =>
  record.secretHash !== null && record.requireSecret !== false;
