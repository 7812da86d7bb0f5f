/**
 * A key's access controls, as Infura's (README "Access control"): its secret, JWTs signed by
 * its public keys, and allowlists of origins, User-Agent substrings, contracts and methods.
 *
 * - A request is judged once (judgeRequest): the secret (HTTP Basic, empty user), else a JWT
 *   (`Authorization: Bearer`) when one is given or required, then the origin and User-Agent
 *   lists. The right secret bypasses every allowlist (and needs no JWT).
 * - Each call is judged alone (callRefusal): its method, and the contracts it targets.
 * - Lists of one type are OR'ed, types AND'ed; a JWT's own lists (claims `methods`,
 *   `addresses`, `origins`, `user_agents`) narrow the key's: a call must pass both.
 *
 * Refusals carry their cause, so the usage report can count them. Only hashes of secrets are
 * kept, and they are compared in constant time. JWTs are verified by `jose`.
 */
import { createPublicKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import {
  ALLOWLIST_TYPES,
  type Allowlists,
  type AllowlistType,
  type KeyRecord,
  MAX_ALLOWLIST_ENTRIES,
  secretRequired,
  sha256,
} from './keys';

/** Why a request or call was refused, as the usage report counts it. */
export type RefusalCause = 'secret' | 'jwt' | 'allowlist' | 'credit' | 'rate';
export const REFUSAL_CAUSES: readonly RefusalCause[] = [
  'secret',
  'jwt',
  'allowlist',
  'credit',
  'rate',
];

/** A request or call refused by the key's controls (the gateway turns it into an RpcError). */
export class Refusal extends Error {
  constructor(
    readonly kind: 'secret' | 'jwt' | 'allowlist',
    message: string,
    /** The allowlist that refused it. */
    readonly list?: AllowlistType,
  ) {
    super(message);
  }
}

/** What a request says about its sender. */
export interface Credentials {
  authorization?: string;
  origin?: string;
  userAgent?: string;
}

/** One allowlist of each type, ready to match (undefined: that type is not restricted). */
interface Lists {
  origins?: string[];
  /** Origins already judged against `origins` (a page sends the same one on every request). */
  originMemo?: Map<string, boolean>;
  userAgents?: string[];
  contracts?: Set<string>;
  methods?: Set<string>;
}

/** What a request was granted: every call of it is judged against this. */
export interface Access {
  /** The secret was given: no allowlist applies. */
  bypass: boolean;
  /** The lists each call must pass: the key's, and its JWT's. */
  lists: Lists[];
  /** The JWT's expiry (ms): a WebSocket's messages are refused from then on. */
  expiresAt?: number;
}

export const FULL_ACCESS: Access = { bypass: true, lists: [] };

/** An address as a comparable key: its value for hex, else its lowercase text. */
export function addressKey(address: string): string {
  return /^0x[0-9a-fA-F]{1,64}$/.test(address)
    ? BigInt(address).toString(16)
    : address.toLowerCase();
}

function compile(allow: Partial<Allowlists>): Lists | undefined {
  const lists: Lists = {};
  if (allow.origins?.length) lists.origins = allow.origins.map((o) => o.toLowerCase());
  if (allow.userAgents?.length) lists.userAgents = allow.userAgents;
  if (allow.contracts?.length) lists.contracts = new Set(allow.contracts.map(addressKey));
  if (allow.methods?.length) lists.methods = new Set(allow.methods);
  return Object.keys(lists).length > 0 ? lists : undefined;
}

interface Compiled {
  lists: Lists | undefined;
  publicKeys: { name: string; key: KeyObject; alg: 'RS256' | 'ES256' }[];
  /** The key's hash and public keys: a token verified under the same ones is still good. */
  verifier: string;
}

interface Verified {
  lists: Lists | undefined;
  expiresAt: number;
}

/**
 * Tokens verified (or being verified: concurrent requests share one verification), by the
 * verifier they were verified under and the token. A record re-read with the same public keys
 * keeps its tokens; a token is only ever the exact signed text, so a hit is that token.
 */
const verified = new Map<string, Promise<Verified>>();
const MAX_VERIFIED = 10_000;

/** Per record (a record is re-read every 500 ms, so a changed key is compiled again). */
const compiled = new WeakMap<KeyRecord, Compiled>();

function compiledOf(record: KeyRecord): Compiled {
  let entry = compiled.get(record);
  if (!entry) {
    const publicKeys: Compiled['publicKeys'] = [];
    for (const { name, pem } of record.jwt?.keys ?? []) {
      try {
        const key = createPublicKey(pem);
        const alg = jwtAlgorithm(key);
        if (alg) publicKeys.push({ name, key, alg });
      } catch {
        // checked when added: a key that no longer parses verifies nothing
      }
    }
    const verifier = sha256(
      [record.hash, ...(record.jwt?.keys ?? []).map((k) => `${k.name}\n${k.pem}`)].join('\n'),
    );
    entry = { lists: compile(record.allow), publicKeys, verifier };
    compiled.set(record, entry);
  }
  return entry;
}

/** RS256 for an RSA key, ES256 for a P-256 key; undefined for any other key. */
export function jwtAlgorithm(key: KeyObject): 'RS256' | 'ES256' | undefined {
  if (key.type !== 'public') return undefined;
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
    return 'ES256';
  }
  return undefined;
}

/** Basic auth with an empty user name and the secret as password, compared by hash. */
function secretGiven(record: KeyRecord, authorization: string): boolean {
  if (!record.secretHash) return false;
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString();
  if (decoded.indexOf(':') !== 0) return false;
  const given = Buffer.from(sha256(decoded.slice(1)), 'hex');
  return timingSafeEqual(given, Buffer.from(record.secretHash, 'hex'));
}

/**
 * Judges a request to `record` (reached by the API key `apiKey`) by its credentials, Origin and
 * User-Agent, as of `nowMs`. Throws a Refusal.
 */
export async function judgeRequest(
  record: KeyRecord,
  apiKey: string,
  credentials: Credentials,
  nowMs: number,
): Promise<Access> {
  const authorization = credentials.authorization?.trim() ?? '';
  const scheme = authorization.slice(0, 7).toLowerCase();
  if (scheme.startsWith('basic ')) {
    if (!secretGiven(record, authorization)) {
      throw new Refusal('secret', 'invalid project id or project secret');
    }
    return FULL_ACCESS;
  }
  if (secretRequired(record)) {
    throw new Refusal('secret', 'invalid project id or project secret');
  }
  const entry = compiledOf(record);
  const lists: Lists[] = [];
  if (entry.lists) lists.push(entry.lists);
  let expiresAt: number | undefined;
  if (scheme === 'bearer ') {
    const token = await verifyToken(entry, apiKey, authorization.slice(7).trim(), nowMs);
    if (token.lists) lists.push(token.lists);
    expiresAt = token.expiresAt;
  } else if (record.jwt?.require) {
    throw new Refusal('jwt', 'invalid JWT: this key requires Authorization: Bearer <JWT>');
  }
  for (const list of lists) {
    if (list.origins && !originPasses(list, credentials.origin)) {
      throw new Refusal(
        'allowlist',
        credentials.origin === undefined
          ? 'rejected due to project ID settings: no Origin, and the key has an origin allowlist'
          : 'rejected due to project ID settings: Origin not in the origin allowlist',
        'origins',
      );
    }
    if (list.userAgents && !userAgentListed(list.userAgents, credentials.userAgent)) {
      throw new Refusal(
        'allowlist',
        'rejected due to project ID settings: User-Agent not in the user agent allowlist',
        'userAgents',
      );
    }
  }
  return lists.length > 0 || expiresAt !== undefined ? { bypass: false, lists, expiresAt } : OPEN;
}

/** No control applies: every call passes. */
const OPEN: Access = { bypass: false, lists: [] };

async function verifyToken(
  entry: Compiled,
  apiKey: string,
  token: string,
  nowMs: number,
): Promise<Verified> {
  const id = `${entry.verifier}:${token}`;
  let verifying = verified.get(id);
  if (!verifying) {
    if (verified.size >= MAX_VERIFIED) verified.clear();
    verifying = verifyNew(entry, apiKey, token, nowMs);
    verified.set(id, verifying);
    // A refused token is not kept: the next request is judged again (and refused again).
    verifying.catch(() => verified.delete(id));
  }
  const result = await verifying;
  if (nowMs >= result.expiresAt) throw new Refusal('jwt', 'invalid JWT: expired');
  return result;
}

async function verifyNew(
  entry: Compiled,
  apiKey: string,
  token: string,
  nowMs: number,
): Promise<Verified> {
  if (entry.publicKeys.length === 0) {
    throw new Refusal('jwt', 'invalid JWT: this key has no JWT public key');
  }
  let header;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new Refusal('jwt', 'invalid JWT: not a JWT');
  }
  if (header.alg !== 'RS256' && header.alg !== 'ES256') {
    throw new Refusal('jwt', 'invalid JWT: alg must be RS256 or ES256');
  }
  // `kid` names the public key (its name); without one, each key of the token's algorithm.
  const candidates = entry.publicKeys.filter(
    (k) => k.alg === header.alg && (header.kid === undefined || k.name === header.kid),
  );
  if (candidates.length === 0) throw new Refusal('jwt', 'invalid JWT: no such public key');
  let last: unknown;
  for (const candidate of candidates) {
    try {
      const { payload } = await jwtVerify(token, candidate.key, {
        algorithms: [candidate.alg],
        audience: apiKey,
        requiredClaims: ['exp'],
        currentDate: new Date(nowMs),
      });
      return { lists: tokenLists(payload), expiresAt: (payload.exp as number) * 1000 };
    } catch (error) {
      if (error instanceof Refusal) throw error;
      last = error;
    }
  }
  const code = (last as { code?: string } | undefined)?.code;
  throw new Refusal(
    'jwt',
    code === 'ERR_JWT_EXPIRED'
      ? 'invalid JWT: expired'
      : code === 'ERR_JWT_CLAIM_VALIDATION_FAILED'
        ? `invalid JWT: ${(last as Error).message}`
        : 'invalid JWT: signature not verified',
  );
}

/** The JWT's own allowlists (Infura's claim names), checked like a key's. */
function tokenLists(payload: Record<string, unknown>): Lists | undefined {
  const claims: Record<AllowlistType, string> = {
    origins: 'origins',
    userAgents: 'user_agents',
    contracts: 'addresses',
    methods: 'methods',
  };
  const allow: Partial<Allowlists> = {};
  for (const type of ALLOWLIST_TYPES) {
    const value = payload[claims[type]];
    if (value === undefined) continue;
    if (
      !Array.isArray(value) ||
      value.length > MAX_ALLOWLIST_ENTRIES ||
      !value.every((v) => typeof v === 'string' && v !== '')
    ) {
      throw new Refusal('jwt', `invalid JWT: ${claims[type]} must be a list of strings`);
    }
    // An empty list in a token allows nothing of that type.
    allow[type] = value.length > 0 ? (value as string[]) : ['\u0000none'];
  }
  return compile(allow);
}

function originPasses(list: Lists, origin: string | undefined): boolean {
  if (origin === undefined) return false;
  const memo = (list.originMemo ??= new Map());
  let passes = memo.get(origin);
  if (passes === undefined) {
    passes = originListed(list.origins!, origin);
    if (memo.size >= 1000) memo.clear();
    memo.set(origin, passes);
  }
  return passes;
}

/**
 * Infura's origin allowlist: an entry is an origin (`https://app.example.com`), a host
 * (`app.example.com`, any scheme), or `*.example.com` for any subdomain; case-insensitive.
 */
function originListed(allowed: string[], origin: string | undefined): boolean {
  if (!origin) return false;
  const given = origin.toLowerCase();
  let host = given;
  let scheme = '';
  try {
    const url = new URL(given);
    host = url.host;
    scheme = url.protocol;
  } catch {
    // not a URL: compared as given
  }
  return allowed.some((entry) => {
    const at = entry.indexOf('://');
    if (at !== -1 && `${entry.slice(0, at)}:` !== scheme) return false;
    const pattern = at === -1 ? entry : entry.slice(at + 3);
    if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
    return pattern === host || entry === given;
  });
}

/** An entry matches a User-Agent that contains it. */
function userAgentListed(allowed: string[], userAgent: string | undefined): boolean {
  return userAgent !== undefined && allowed.some((entry) => userAgent.includes(entry));
}

/**
 * The allowlist a call fails (its method, or a contract it targets), or undefined when it
 * passes. `targets()` reads the contracts the call targets: undefined when it targets none,
 * null when they cannot be told (a list of contracts then refuses it).
 */
export function callRefusal(
  access: Access,
  method: string,
  targets: () => string[] | null | undefined,
): AllowlistType | undefined {
  if (access.bypass || access.lists.length === 0) return undefined;
  let read: string[] | null | undefined;
  let wasRead = false;
  for (const list of access.lists) {
    if (list.methods && !list.methods.has(method)) return 'methods';
    if (list.contracts) {
      if (!wasRead) {
        read = targets();
        wasRead = true;
      }
      if (read === undefined) continue;
      if (read === null) return 'contracts';
      const contracts = list.contracts;
      if (!read.every((target) => contracts.has(addressKey(target)))) return 'contracts';
    }
  }
  return undefined;
}

/** A refusal's message, naming the allowlist a call failed. */
export function callRefusalMessage(list: AllowlistType): string {
  return list === 'methods'
    ? 'rejected due to project ID settings: method not in the method allowlist'
    : 'rejected due to project ID settings: a contract it targets is not in the contract allowlist';
}
