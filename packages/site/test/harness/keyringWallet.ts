/**
 * The Node side of an injected "MetaMask Flask" for the keyring snap: the real keyring bundle in
 * @metamask/snaps-simulation. Like MetaMask, it forwards `wallet_invokeKeyring` to the snap's
 * onKeyringRequest with the page's origin, and answers the wallet signing methods (personal_sign,
 * eth_signTypedData_v4, eth_signTransaction and the user-operation methods MetaMask drives
 * itself) by sending keyring_submitRequest as the origin `metamask` for the account they name.
 */
import { randomUUID } from 'node:crypto';

import type { WalletReply } from './wallet';

interface SimulatedResponse {
  response: { result?: unknown; error?: { code?: number; message?: string; data?: unknown } };
}
type SimulatedRequest = Promise<SimulatedResponse> & {
  getInterface(): Promise<{ ok?: () => Promise<void> }>;
};
interface SimulatedKeyringSnap {
  request(options: { method: string; params?: unknown; origin?: string }): SimulatedRequest;
  onKeyringRequest(options: {
    method: string;
    params?: unknown;
    origin?: string;
  }): SimulatedRequest;
  executionService: { terminateAllSnaps?: () => Promise<void> };
}
const { installSnap } = require('@metamask/snaps-simulation') as {
  installSnap(
    snapId: string,
    options: { executionService: unknown },
  ): Promise<SimulatedKeyringSnap>;
};
const { NodeThreadExecutionService } = require('@metamask/snaps-controllers/node') as {
  NodeThreadExecutionService: unknown;
};

const SIGNING_METHODS = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_signTransaction',
  'eth_prepareUserOperation',
  'eth_patchUserOperation',
  'eth_signUserOperation',
];

function fail(error: { code?: number; message?: string; data?: unknown }): WalletReply {
  return {
    error: { code: error.code ?? -32603, message: error.message ?? 'Snap error', data: error.data },
  };
}

export class SimulatedKeyringFlask {
  readonly snapId: string;
  readonly calls: string[] = [];
  /** keyring_submitRequest bodies sent on behalf of the page, in order. */
  readonly submitted: { method: string; account: string; scope: string }[] = [];
  private snap: SimulatedKeyringSnap | null = null;

  constructor(
    snapFolderUrl: string,
    private readonly chainId: number,
  ) {
    this.snapId = `local:${snapFolderUrl}`;
  }

  /** Installs the snap (as MetaMask does on wallet_requestSnaps). */
  async install(): Promise<SimulatedKeyringSnap> {
    this.snap ??= await installSnap(this.snapId, { executionService: NodeThreadExecutionService });
    return this.snap;
  }

  /** A snap RPC call with its dialog approved, as the user would. */
  async approved(method: string, params: unknown, origin: string): Promise<WalletReply> {
    const snap = await this.install();
    // Like MetaMask, a request without params carries no params member at all.
    const pending = snap.request(
      params === undefined ? { method, origin } : { method, params, origin },
    );
    let settled = false;
    void pending.getInterface().then(
      async (ui) => {
        if (!settled) await ui.ok?.();
      },
      () => undefined,
    );
    const { response } = await pending;
    settled = true;
    return response.error ? fail(response.error) : { result: response.result ?? null };
  }

  async handle(method: string, params: unknown, origin: string): Promise<WalletReply> {
    this.calls.push(method);
    try {
      if (method === 'wallet_requestSnaps') {
        await this.install();
        return { result: { [this.snapId]: { id: this.snapId, enabled: true, blocked: false } } };
      }
      if (!this.snap) {
        return fail({ code: 4100, message: `The snap "${this.snapId}" is not installed.` });
      }
      const inner = (params ?? {}) as {
        snapId?: string;
        request?: { method: string; params?: unknown };
      };
      if (method === 'wallet_invokeKeyring' || method === 'wallet_invokeSnap') {
        if (inner.snapId !== this.snapId || !inner.request) {
          return fail({ code: 4100, message: `The snap "${inner.snapId}" is not connected.` });
        }
        if (method === 'wallet_invokeSnap') {
          return this.approved(inner.request.method, inner.request.params, origin);
        }
        const { response } = await this.snap.onKeyringRequest({
          origin,
          method: inner.request.method,
          ...(inner.request.params === undefined ? {} : { params: inner.request.params }),
        });
        return response.error ? fail(response.error) : { result: response.result ?? null };
      }
      if (SIGNING_METHODS.includes(method)) {
        return await this.submit(method, params, origin);
      }
      return fail({
        code: -32601,
        message: `The method "${method}" does not exist / is not available.`,
      });
    } catch (error) {
      return fail({ message: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The account a signing request names, then keyring_submitRequest from `metamask`. */
  private async submit(method: string, params: unknown, origin: string): Promise<WalletReply> {
    const snap = this.snap as SimulatedKeyringSnap;
    let address: unknown;
    let requestParams = params;
    const list = Array.isArray(params) ? params : [];
    if (method === 'personal_sign') address = list[1];
    else if (method === 'eth_signTypedData_v4') address = list[0];
    else if (method === 'eth_signTransaction') address = (list[0] as { from?: string })?.from;
    else if (method === 'eth_prepareUserOperation') {
      const { from, intents } = params as { from: string; intents: unknown[] };
      address = from;
      requestParams = intents;
    } else address = (list[0] as { sender?: string })?.sender;
    const accounts = await snap.onKeyringRequest({
      origin: 'metamask',
      method: 'keyring_listAccounts',
    });
    const account = ((accounts.response.result ?? []) as { id: string; address: string }[]).find(
      (entry) =>
        typeof address === 'string' && entry.address.toLowerCase() === address.toLowerCase(),
    );
    if (!account) {
      return fail({ code: 4100, message: `No snap account ${String(address)} in this wallet.` });
    }
    const scope = `eip155:${this.chainId}`;
    this.submitted.push({ method, account: account.id, scope });
    const { response } = await snap.onKeyringRequest({
      origin: 'metamask',
      method: 'keyring_submitRequest',
      params: {
        id: randomUUID(),
        scope,
        account: account.id,
        origin,
        request: { method, params: requestParams },
      },
    });
    if (response.error) return fail(response.error);
    return { result: (response.result as { result: unknown }).result };
  }

  async close() {
    await this.snap?.executionService.terminateAllSnaps?.();
  }
}
