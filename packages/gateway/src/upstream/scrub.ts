/**
 * Upstream error text is the upstream's: a provider may echo its own token, a URL with a key in
 * its path or query, or an Authorization header back in an error message. Before an upstream
 * error is relayed, everything in it that looks like a credential is replaced by `***`:
 * - the secret parts of the configured upstream URLs (password, path segments, query values);
 * - URLs with a user name or password, and query values named like a key or a token;
 * - `Bearer`/`Basic` credentials, `key=value` / `"key": "value"` pairs named like a secret;
 * - JSON Web Tokens, and long tokens of letters and digits (an API key, a project id) that are
 *   not chain data: `0x` hex (hashes, addresses, revert data) is kept as it is, and so are the
 *   words of a revert reason (code 3: the contract's text, decoded from its data).
 * Results are never touched: only error objects go through here.
 */

const MASK = '***';

// `scheme://user:pass@` or `scheme://token@`: the user part goes.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@"']+@/gi;
// A query value or a header-like pair named like a secret.
const NAMED_SECRET =
  /((?:api[-_]?key|apikey|access[-_]?token|auth[-_]?token|token|secret|password|passwd|pwd|project[-_]?(?:id|secret)|authorization)["']?\s*[:=]\s*["']?)(?!0x)([^\s"'&,;}]+)/gi;
const BEARER = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g;
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
// A run of 20+ letters/digits (with _ or -) holding both a digit and a letter, not after `0x`.
const LONG_TOKEN =
  /(?<![0-9A-Za-z_-])(?!0x)(?=[A-Za-z_-]*[0-9])(?=[0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}/g;

/** The parts of an upstream URL that may be secret: its password, user, path and query values. */
export function secretsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const secrets = [parsed.username, parsed.password].map(decodeURIComponent);
  for (const segment of parsed.pathname.split('/')) {
    // `/v3/<key>`, `/rpc/<token>`: every segment long enough to be a key.
    if (segment.length >= 8) secrets.push(decodeURIComponent(segment));
  }
  for (const value of parsed.searchParams.values()) if (value.length >= 4) secrets.push(value);
  return secrets.filter((secret) => secret.length >= 4);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A scrubber for one chain: `known` are the secrets of its upstream URLs (secretsOf), masked
 * wherever they appear, before the general patterns run.
 */
export type Scrub = (text: string, options?: { revert?: boolean }) => string;

export function scrubber(known: string[]): Scrub {
  const unique = [...new Set(known)].sort((a, b) => b.length - a.length);
  const knownPattern = unique.length > 0 ? new RegExp(unique.map(escape).join('|'), 'g') : null;
  return (text, options = {}) => {
    const out = (knownPattern ? text.replace(knownPattern, MASK) : text)
      .replace(URL_USERINFO, `$1${MASK}@`)
      .replace(BEARER, `$1 ${MASK}`)
      .replace(JWT, MASK)
      .replace(NAMED_SECRET, (_match, name: string) => `${name}${MASK}`);
    return options.revert ? out : out.replace(LONG_TOKEN, MASK);
  };
}

/**
 * An upstream error object's JSON text with its message (and string data other than hex) scrubbed.
 * Revert data (`0x...`) is chain data and stays as it is.
 */
export function scrubError(errorJson: string, scrub: Scrub): string {
  let error: unknown;
  try {
    error = JSON.parse(errorJson);
  } catch {
    return JSON.stringify({ code: -32603, message: scrub(errorJson) });
  }
  const revert = (error as { code?: unknown } | null)?.code === 3;
  const clean = scrubValue(error, (text) => scrub(text, { revert }));
  const text = JSON.stringify(clean);
  return text === errorJson ? errorJson : text;
}

function scrubValue(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return /^0x[0-9a-fA-F]*$/.test(value) ? value : scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, scrub));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = scrubValue(v, scrub);
    return out;
  }
  return value;
}
