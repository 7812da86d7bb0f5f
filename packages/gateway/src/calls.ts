/**
 * What gateway.ts and the transports share: a request's context once its key was judged, an
 * answer and its charges, and how a refusal or a store failure looks to the client.
 */
import { type Access, type Credentials, Refusal } from './auth/access';
import { type KeyRecord, KEY_FORMAT, sha256 } from './auth/keys';
import type { KeyRegistry } from './auth/registry';
import { LedgerLost, type Durable } from './credits/ledger';
import { idOf } from './jsonrpc/envelope';
import { errors, type JsonRpcId, RpcError } from './jsonrpc/errors';
import { methodsFor, type MethodSpec, type Protocol } from './jsonrpc/methods';
import type { Chain } from './upstream/chain';
import { UpstreamFailure } from './upstream/upstream';

export interface CallContext {
  chain: Chain;
  key: KeyRecord;
  ws: boolean;
  /** What the request was granted by the key's controls. */
  access: Access;
  /** The API key and credentials it came with: a WebSocket's are judged again on a change. */
  apiKey: string;
  credentials: Credentials;
}

/** A key's record and what its request was granted. */
export interface Authenticated {
  key: KeyRecord;
  access: Access;
  apiKey: string;
  credentials: Credentials;
}

export interface Answer {
  status: number;
  text: string;
  /** What the answer's calls were charged: refunded if the answer is never delivered. */
  charges?: Charge[];
  /**
   * Credits the answer cost, and what its key has left today (the answer's headers); a request
   * refused before its key's controls passed shows no balance.
   */
  credits?: { cost: number; left?: number };
}

export interface Charge {
  method: string;
  cost: number;
  /** When it was debited: a refund goes back to that day (and minute). */
  at: number;
}

/**
 * A call the transport answers itself instead of an upstream (a WebSocket subscription): its
 * result, or undefined when the call is not one of its own. Called after the call was charged;
 * a throw refunds it.
 */
export type LocalCall = (method: string, params: unknown[]) => Promise<unknown> | undefined;

/** A store failure as the client sees it: retry later, or (file lost) paid calls stopped. */
export function ledgerError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  return error instanceof LedgerLost
    ? errors.ledgerLost(error.message)
    : errors.ledgerUnavailable();
}

export interface Admitted {
  id: JsonRpcId;
  method: string;
  params: unknown[];
  spec: MethodSpec;
  /** When it was debited. */
  at: number;
  /** Resolves when this call's debit is on disk (its batch, not later ones). */
  durable: Durable;
}

/** A refusal by the key's controls as the client sees it: 401 for credentials, else 403. */
export function refusalError(refusal: Refusal): RpcError {
  return refusal.kind === 'allowlist'
    ? errors.rejected(refusal.message, refusal.list)
    : errors.unauthorizedBy(refusal.message);
}

/** The id of a message refused whole (a single call's id; null for a batch or bad JSON). */
export function bodyId(body: string): JsonRpcId {
  try {
    return idOf(JSON.parse(body));
  } catch {
    return null;
  }
}

/** A Host header without its port, for messages. */
export function hostName(host: string | undefined): string {
  return (host ?? '').replace(/:\d+$/, '');
}

const logged = new Set<string>();
/** Logs a failure once per process and kind, so an outage does not flood the log. */
export function logOnce(kind: string, message: string): void {
  if (logged.has(kind)) return;
  logged.add(kind);
  process.stderr.write(`${message}\n`);
}

/** An admitted call's failure to be answered by an upstream, as the client sees it. */
export function forwardError(error: unknown): RpcError {
  if (error instanceof UpstreamFailure) {
    return error.kind === 'timeout' ? errors.upstreamTimeout() : errors.upstreamUnavailable();
  }
  // Our own failure, not the upstream's: a stack overflow in serialising the params is the
  // params' fault (nested too deeply); anything else is an internal error.
  if (error instanceof RangeError && /call stack/i.test(error.message)) return errors.tooDeep();
  return error instanceof RpcError ? error : errors.internal();
}

/** A refused call's method for metrics: its name if the chain serves it, else `invalid`. */
export function methodLabel(protocol: Protocol, call: unknown): string {
  const method = String((call as { method?: unknown } | null)?.method);
  return methodsFor(protocol).has(method) ? method : 'invalid';
}

/** How long a key record is trusted before it is read again (so a revoke lands within 1 s). */
export const KEY_TTL_MS = 500;

/** Key records by hash, re-read from the registry every KEY_TTL_MS; only hashes are kept. */
export class KeyRecords {
  private readonly records = new Map<string, { record: KeyRecord | undefined; at: number }>();
  /** SHA-256 per well-formed key string seen, so a busy key is not hashed on every call. */
  private readonly hashes = new Map<string, string>();

  constructor(
    private readonly keys: KeyRegistry,
    private readonly now: () => number,
  ) {}

  /** The SHA-256 of a key, or a 401 RpcError when it is not one. */
  hashOf(key: string): string {
    let hash = this.hashes.get(key);
    if (hash === undefined) {
      if (!KEY_FORMAT.test(key)) throw errors.keyInvalid();
      hash = sha256(key);
      if (this.hashes.size > 100_000) this.hashes.clear();
      this.hashes.set(key, hash);
    }
    return hash;
  }

  /** The key's record (at most KEY_TTL_MS old); undefined if revoked or unknown. */
  async current(hash: string): Promise<KeyRecord | undefined> {
    let cached = this.records.get(hash);
    if (!cached || this.now() - cached.at > KEY_TTL_MS) {
      let record: KeyRecord | undefined;
      try {
        record = await this.keys.get(hash);
      } catch (error) {
        throw ledgerError(error);
      }
      cached = { record, at: this.now() };
      if (this.records.size > 100_000) this.records.clear();
      this.records.set(hash, cached);
    }
    return cached.record && !cached.record.revokedAt ? cached.record : undefined;
  }
}
