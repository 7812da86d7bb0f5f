import type { Devnet } from '../../core/devnet';
import type { Params } from '../params';

/** The running devnet; devnet_load and devnet_restart swap it for another instance. */
export interface DevnetHost {
  devnet: Devnet;
  /** What starknet_specVersion answers (--rpc-version); 0.9.x also takes 0.9's getEvents shape. */
  rpcVersion?: string;
  /** Called after the devnet is replaced, so the server can re-arm its block timer. */
  onReplaced?: () => void;
}

export type Handler = (host: DevnetHost, params: Params) => unknown;

/** A method: its parameter names in positional order, and its handler (params by name). */
export interface MethodSpec {
  params: readonly string[];
  handler: Handler;
}

export type MethodTable = Record<string, MethodSpec>;
