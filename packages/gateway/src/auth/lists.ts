/**
 * Allowlists as they are matched (a key's, and a JWT's own), and the refusals of the controls:
 * origins (`*.example.com` for subdomains), User-Agent substrings, contract addresses compared
 * as numbers, and methods. Lists of one type are OR'ed, types AND'ed.
 */
import type { Allowlists, AllowlistType } from './keys';

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

/** One allowlist of each type, ready to match (undefined: that type is not restricted). */
export interface Lists {
  origins?: string[];
  /** Origins already judged against `origins` (a page sends the same one on every request). */
  originMemo?: Map<string, boolean>;
  userAgents?: string[];
  contracts?: Set<string>;
  methods?: Set<string>;
}

/** An address as a comparable key: its value for hex, else its lowercase text. */
export function addressKey(address: string): string {
  let key = addressKeys.get(address);
  if (key === undefined) {
    key = /^0x[0-9a-fA-F]{1,64}$/.test(address)
      ? BigInt(address).toString(16)
      : address.toLowerCase();
    if (addressKeys.size >= 10_000) addressKeys.clear();
    addressKeys.set(address, key);
  }
  return key;
}
/** Addresses already read (a dapp calls the same few contracts over and over). */
const addressKeys = new Map<string, string>();

export function compile(allow: Partial<Allowlists>): Lists | undefined {
  const lists: Lists = {};
  if (allow.origins?.length) lists.origins = allow.origins.map((o) => o.toLowerCase());
  if (allow.userAgents?.length) lists.userAgents = allow.userAgents;
  if (allow.contracts?.length) lists.contracts = new Set(allow.contracts.map(addressKey));
  if (allow.methods?.length) lists.methods = new Set(allow.methods);
  return Object.keys(lists).length > 0 ? lists : undefined;
}

export function originPasses(list: Lists, origin: string | undefined): boolean {
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
export function userAgentListed(allowed: string[], userAgent: string | undefined): boolean {
  return userAgent !== undefined && allowed.some((entry) => userAgent.includes(entry));
}

/**
 * The allowlist a call fails (its method, or a contract it targets), or undefined when it
 * passes. `targets()` reads the contracts the call targets: undefined when it targets none,
 * null when they cannot be told (a list of contracts then refuses it).
 */
export function callRefusal(
  access: { bypass: boolean; lists: Lists[] },
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
