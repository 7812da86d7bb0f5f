/**
 * Shared by the access-control tests: a gateway in front of a counting proxy in front of anvil
 * (so every call that reaches the upstream is counted), keys with secrets and JWT public keys,
 * and JWTs signed with jose.
 */
import {
  type AnvilService,
  type CountingProxy,
  startAnvil,
  startCountingProxy,
} from '@l2wallet/testkit';
import { exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { newKey, type NewKeyOptions, sha256 } from '../src/auth/keys';
import type { RunningGateway } from '../src/server';
import { startGateway } from '../src/server';
import { gatewayConfig } from './helpers';

export interface Stack {
  anvil: AnvilService;
  proxy: CountingProxy;
  gw: RunningGateway;
  stop(): Promise<void>;
}

export async function startStack(options: Parameters<typeof startGateway>[1] = {}): Promise<Stack> {
  const anvil = await startAnvil();
  const proxy = await startCountingProxy(anvil.url);
  // Subscriptions go to anvil's own WebSocket (the proxy counts HTTP calls).
  const gw = await startGateway(gatewayConfig(proxy.url, { wsUpstream: anvil.wsUrl }), options);
  return {
    anvil,
    proxy,
    gw,
    async stop() {
      await gw.close();
      await proxy.stop();
      await anvil.stop();
    },
  };
}

/** Calls of `method` the upstream received (a batch counts each of its calls). */
export const forwarded = (proxy: CountingProxy, method: string): number =>
  proxy
    .requests()
    .flat()
    .filter((m) => m === method).length;

/** A key in the gateway's registry; its secret when it has one. */
export async function makeKey(
  gw: RunningGateway,
  options: Partial<NewKeyOptions> = {},
): Promise<{ key: string; secret?: string; url: string; wsUrl: string }> {
  const created = newKey({ plan: 'team', ...options });
  await gw.gateway.keys.add(created.record);
  return {
    key: created.key,
    secret: created.secret,
    url: `${gw.url}/v3/${created.key}`,
    wsUrl: `${gw.url.replace(/^http/, 'ws')}/ws/v3/${created.key}`,
  };
}

/** HTTP Basic with an empty user name and the secret, as Infura takes it. */
export const basic = (secret: string): string =>
  `Basic ${Buffer.from(`:${secret}`).toString('base64')}`;

export interface Signer {
  alg: 'RS256' | 'ES256';
  pem: string;
  /** `expiresIn`: as jose takes it; null for a token without `exp`. */
  sign(
    payload: JWTPayload,
    options?: { kid?: string; expiresIn?: string | number | null },
  ): Promise<string>;
}

/** A key pair made by jose; `sign` makes a JWT for `aud` with an `exp` (default in 5 minutes). */
export async function signer(alg: 'RS256' | 'ES256'): Promise<Signer> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return {
    alg,
    pem: await exportSPKI(publicKey),
    sign: (payload, options = {}) => {
      const jwt = new SignJWT(payload).setProtectedHeader({
        alg,
        typ: 'JWT',
        ...(options.kid ? { kid: options.kid } : {}),
      });
      if (options.expiresIn === null) return jwt.sign(privateKey);
      if (options.expiresIn !== undefined) jwt.setExpirationTime(options.expiresIn);
      else if (payload.exp === undefined) jwt.setExpirationTime('5m');
      return jwt.sign(privateKey);
    },
  };
}

/** An unsigned token (`alg: none`) with the same claims a good one would have. */
export function unsignedToken(payload: JWTPayload): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
}

/** What a key was charged today, and refused by cause (as its usage report counts them). */
export async function ledgerOf(gw: RunningGateway, key: string) {
  const hash = sha256(key);
  const used = await gw.gateway.ledger.usage(hash, Date.now());
  return { total: used.total, refused: await gw.gateway.refusals.counts(hash, Date.now()) };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
