import type { Eip1193Provider, RequestArguments } from '../src';

export interface RpcFailure {
  code: number;
  message: string;
  data?: unknown;
}

type Handler = (params: unknown) => unknown;

/**
 * A fake EIP-1193 provider: it records every request and answers wallet_* methods from a table.
 * Snap methods (inside wallet_invokeSnap) are answered from `snapMethods`.
 */
export class FakeProvider implements Eip1193Provider {
  readonly requests: RequestArguments[] = [];
  readonly walletMethods = new Map<string, Handler>();
  readonly snapMethods = new Map<string, Handler>();

  async request(args: RequestArguments): Promise<unknown> {
    this.requests.push(args);
    if (args.method === 'wallet_invokeSnap') {
      const { request } = args.params as { snapId: string; request: RequestArguments };
      const handler = this.snapMethods.get(request.method);
      if (!handler) throw { code: -32601, message: `Method not found: ${request.method}` };
      return handler(request.params);
    }
    const handler = this.walletMethods.get(args.method);
    if (!handler) throw { code: -32601, message: `The method "${args.method}" does not exist` };
    return handler(args.params);
  }

  /** The snap-level requests, in order. */
  snapRequests(): RequestArguments[] {
    return this.requests
      .filter((r) => r.method === 'wallet_invokeSnap')
      .map((r) => (r.params as { request: RequestArguments }).request);
  }
}

/** A fake window for EIP-6963 discovery: a real EventTarget plus an optional window.ethereum. */
export class FakeWindow extends EventTarget {
  ethereum?: Eip1193Provider;
}

export function announceOnRequest(win: FakeWindow, rdns: string, provider: Eip1193Provider) {
  win.addEventListener('eip6963:requestProvider', () => {
    win.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: Object.freeze({
          info: { uuid: `uuid-${rdns}`, name: rdns, icon: 'data:,', rdns },
          provider,
        }),
      }),
    );
  });
}
