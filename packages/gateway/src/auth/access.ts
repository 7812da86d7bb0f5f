/**
 * A key's access controls, as Infura's (docs/interface/gateway.md#authentication): its secret,
 * JWTs signed by its public keys, and allowlists of origins, User-Agent substrings, contracts and
 * methods. A request is judged once (judgeRequest), each call alone (callRefusal); how the
 * controls combine: docs/architecture/gateway.md#access-controls. Only hashes of secrets are
 * kept, compared in constant time; JWTs are verified by `jose`.
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
import { compile, type Lists, originPasses, Refusal, userAgentListed } from './lists';

// The refusals, the matching of lists and the per-call judgement, from here for the gateway.
export {
  addressKey,
  callRefusal,
  callRefusalMessage,
  Refusal,
  REFUSAL_CAUSES,
  type RefusalCause,
} from './lists';

/** What a request says about its sender. */
export interface Credentials {
  authorization?: string;
  origin?: string;
  userAgent?: string;
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

interface Compiled {
  lists: Lists | undefined;
  /** What a request without a token is granted (when its origin and User-Agent pass). */
  access: Access;
  /** What a request with a verified token is granted, per token. */
  tokenAccess: Map<Verified, Access>;
  /** The last Authorization header whose token was found verified, and that token. */
  lastHeader?: string;
  lastToken?: Verified;
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
const verified = new Map<string, Map<string, Verified | Promise<Verified>>>();
const MAX_VERIFIERS = 10_000;
const MAX_TOKENS = 1000;

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
    const lists = compile(record.allow);
    entry = {
      lists,
      access: lists ? { bypass: false, lists: [lists] } : OPEN,
      tokenAccess: new Map(),
      publicKeys,
      verifier,
    };
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
 * User-Agent, as of `nowMs`. Throws a Refusal (or rejects, when a JWT is verified for the first
 * time); a request whose JWT is already verified is judged without waiting.
 */
export function judgeRequest(
  record: KeyRecord,
  apiKey: string,
  credentials: Credentials,
  nowMs: number,
): Access | Promise<Access> {
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
  if (scheme === 'bearer ') {
    // A client sends the same header on every request: compared whole, before any lookup.
    if (authorization === entry.lastHeader && entry.lastToken) {
      return granted(entry, credentials, entry.lastToken, nowMs);
    }
    const token = tokenOf(entry, apiKey, authorization.slice(7).trim(), nowMs);
    if (!(token instanceof Promise)) {
      entry.lastHeader = authorization;
      entry.lastToken = token;
    }
    return token instanceof Promise
      ? token.then((t) => granted(entry, credentials, t, nowMs))
      : granted(entry, credentials, token, nowMs);
  }
  if (record.jwt?.require) {
    throw new Refusal('jwt', 'invalid JWT: this key requires Authorization: Bearer <JWT>');
  }
  return granted(entry, credentials, undefined, nowMs);
}

/** What the key's lists (and its token's) grant a request from this Origin and User-Agent. */
function granted(
  entry: Compiled,
  credentials: Credentials,
  token: Verified | undefined,
  nowMs: number,
): Access {
  if (token && nowMs >= token.expiresAt) throw new Refusal('jwt', 'invalid JWT: expired');
  const access = token ? accessWith(entry, token) : entry.access;
  for (const list of access.lists) {
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
  return access;
}

/** The key's lists and a token's, made once per compiled record and token. */
function accessWith(entry: Compiled, token: Verified): Access {
  let access = entry.tokenAccess.get(token);
  if (!access) {
    const lists = entry.lists ? [entry.lists] : [];
    if (token.lists) lists.push(token.lists);
    access = { bypass: false, lists, expiresAt: token.expiresAt };
    if (entry.tokenAccess.size >= 1000) entry.tokenAccess.clear();
    entry.tokenAccess.set(token, access);
  }
  return access;
}

/** No control applies: every call passes. */
const OPEN: Access = { bypass: false, lists: [] };

/** A token as verified under `entry`'s public keys: at once when it was before. */
function tokenOf(
  entry: Compiled,
  apiKey: string,
  token: string,
  nowMs: number,
): Verified | Promise<Verified> {
  let tokens = verified.get(entry.verifier);
  if (!tokens) {
    if (verified.size >= MAX_VERIFIERS) verified.clear();
    tokens = new Map();
    verified.set(entry.verifier, tokens);
  }
  const known = tokens.get(token);
  if (known) return known;
  if (tokens.size >= MAX_TOKENS) tokens.clear();
  const verifying = verifyNew(entry, apiKey, token, nowMs);
  const held = tokens;
  held.set(token, verifying);
  verifying.then(
    (result) => {
      if (held.get(token) === verifying) held.set(token, result);
    },
    // A refused token is not kept: the next request is judged again (and refused again).
    () => held.delete(token),
  );
  return verifying;
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
