/**
 * The Node side of an injected "MetaMask Flask" for browser tests: the page's wallet_* calls run
 * the real snap bundle in snaps-simulation (snapWallet.ts). SimulatedFlask serves the Starknet
 * snap (dialogs answered as the test queued); SimulatedKeyringFlask serves the keyring snap the
 * way MetaMask drives it (wallet_invokeKeyring, and the signing methods through
 * keyring_submitRequest from `metamask`).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import {
  dialogText,
  installSimulatedSnap,
  type SimulatedSnap,
  type SnapDialog,
  type SnapReply,
} from './snapWallet';

export type DialogAction = 'approve' | 'decline';

export interface DialogRecord {
  method: string;
  type: string;
  text: string;
  action: DialogAction;
}

export interface WalletReply {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

function fail(error: { code?: number; message?: string; data?: unknown }): WalletReply {
  return {
    error: { code: error.code ?? -32603, message: error.message ?? 'Snap error', data: error.data },
  };
}

function reply({ response }: SnapReply): WalletReply {
  return response.error ? fail(response.error) : { result: response.result ?? null };
}

const notFound = (method: string) =>
  fail({ code: -32601, message: `The method "${method}" does not exist / is not available.` });

/** Like MetaMask, a request without params carries no params member at all. */
const withParams = (method: string, params: unknown, origin: string) =>
  params === undefined ? { method, origin } : { method, params, origin };

export class SimulatedFlask {
  readonly snapId: string;
  readonly dialogs: DialogRecord[] = [];
  readonly calls: string[] = [];
  private readonly version: string;
  private readonly queued: DialogAction[] = [];
  private snap: SimulatedSnap | null = null;
  /**
   * The snap request in flight: each waits for the one before. snaps-simulation's
   * getInterface() answers with the snap's current dialog, whichever request opened it, so with
   * two requests in flight the one that did not open a dialog could answer it (and record it
   * under its own method). One at a time, every dialog belongs to the request in flight.
   */
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(snapFolderUrl: string, snapFolder: string) {
    this.snapId = `local:${snapFolderUrl}`;
    const manifest = JSON.parse(
      readFileSync(path.join(snapFolder, 'snap.manifest.json'), 'utf8'),
    ) as { version: string };
    this.version = manifest.version;
  }

  /** The next dialog is declined (later ones are approved unless queued too). */
  declineNextDialog() {
    this.queued.push('decline');
  }

  private nextAction(): DialogAction {
    return this.queued.shift() ?? 'approve';
  }

  async handle(method: string, params: unknown, origin: string): Promise<WalletReply> {
    this.calls.push(method);
    try {
      switch (method) {
        case 'wallet_getSnaps':
          return { result: this.snap ? { [this.snapId]: this.installedEntry() } : {} };
        case 'wallet_requestSnaps':
          return await this.requestSnaps(params as Record<string, { version?: string }>);
        case 'wallet_invokeSnap':
          return await this.invokeSnap(
            params as { snapId: string; request: { method: string; params?: unknown } },
            origin,
          );
        default:
          return notFound(method);
      }
    } catch (error) {
      return fail({ message: error instanceof Error ? error.message : String(error) });
    }
  }

  private installedEntry() {
    return {
      id: this.snapId,
      version: this.version,
      enabled: true,
      blocked: false,
      initialPermissions: {},
    };
  }

  private async requestSnaps(params: Record<string, { version?: string }>): Promise<WalletReply> {
    const ids = Object.keys(params ?? {});
    const unknown = ids.find((id) => id !== this.snapId);
    if (unknown) return fail({ message: `Failed to fetch snap "${unknown}".` });
    // MetaMask shows an install/connect prompt here.
    const action = this.nextAction();
    this.dialogs.push({
      method: 'wallet_requestSnaps',
      type: 'install',
      text: `Connect ${this.snapId}`,
      action,
    });
    if (action === 'decline') return fail({ code: 4001, message: 'User rejected the request.' });
    this.snap ??= await installSimulatedSnap(this.snapId);
    return { result: { [this.snapId]: this.installedEntry() } };
  }

  private invokeSnap(
    params: { snapId: string; request: { method: string; params?: unknown } },
    origin: string,
  ): Promise<WalletReply> {
    const turn = this.inFlight.then(() => this.invokeSnapNow(params, origin));
    this.inFlight = turn.catch(() => undefined);
    return turn;
  }

  private async invokeSnapNow(
    params: { snapId: string; request: { method: string; params?: unknown } },
    origin: string,
  ): Promise<WalletReply> {
    if (!this.snap || params?.snapId !== this.snapId) {
      return fail({
        code: 4100,
        message: `The snap "${params?.snapId}" is not installed or not connected to this site.`,
      });
    }
    const { method } = params.request;
    const request = this.snap.request(withParams(method, params.request.params, origin));
    let settled = false;
    // A request may open dialogs, one after another; answer each as queued. Requests without a
    // dialog just resolve (getInterface then never answers, which is harmless here).
    const answered = new Set<string>();
    const answerDialogs = async () => {
      while (!settled) {
        const ui = (await request.getInterface()) as SnapDialog;
        if (settled) return;
        if (answered.has(ui.id)) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        answered.add(ui.id);
        const action = this.nextAction();
        this.dialogs.push({
          method,
          type: ui.type ?? 'custom',
          text: dialogText(ui.content),
          action,
        });
        if (action === 'approve' && ui.ok) await ui.ok();
        else if (ui.cancel) await ui.cancel();
        else if (ui.ok) await ui.ok();
      }
    };
    answerDialogs().catch(() => undefined);
    const answer = await request;
    settled = true;
    return reply(answer);
  }

  async close() {
    await this.snap?.executionService.terminateAllSnaps?.();
  }
}

const SIGNING_METHODS = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_signTransaction',
  'eth_prepareUserOperation',
  'eth_patchUserOperation',
  'eth_signUserOperation',
];

export class SimulatedKeyringFlask {
  readonly snapId: string;
  readonly calls: string[] = [];
  /** keyring_submitRequest bodies sent on behalf of the page, in order. */
  readonly submitted: { method: string; account: string; scope: string }[] = [];
  private snap: SimulatedSnap | null = null;

  constructor(
    snapFolderUrl: string,
    private readonly chainId: number,
  ) {
    this.snapId = `local:${snapFolderUrl}`;
  }

  /** Installs the snap (as MetaMask does on wallet_requestSnaps). */
  async install(): Promise<SimulatedSnap> {
    this.snap ??= await installSimulatedSnap(this.snapId);
    return this.snap;
  }

  /** A snap RPC call with its dialog approved, as the user would. */
  async approved(method: string, params: unknown, origin: string): Promise<WalletReply> {
    const snap = await this.install();
    const pending = snap.request(withParams(method, params, origin));
    let settled = false;
    void pending.getInterface().then(
      async (ui) => {
        if (!settled) await (ui as SnapDialog).ok?.();
      },
      () => undefined,
    );
    const answer = await pending;
    settled = true;
    return reply(answer);
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
        return reply(
          await this.snap.onKeyringRequest(
            withParams(inner.request.method, inner.request.params, origin),
          ),
        );
      }
      if (SIGNING_METHODS.includes(method)) {
        return await this.submit(method, params, origin);
      }
      return notFound(method);
    } catch (error) {
      return fail({ message: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The account a signing request names, then keyring_submitRequest from `metamask`. */
  private async submit(method: string, params: unknown, origin: string): Promise<WalletReply> {
    const snap = this.snap as SimulatedSnap;
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

/** Runs in the page before any site script: announces the provider as MetaMask Flask (EIP-6963). */
export function injectedProviderScript(bindingName: string): string {
  return `(() => {
  const provider = {
    isMetaMask: true,
    async request({ method, params }) {
      const reply = JSON.parse(await window[${JSON.stringify(bindingName)}](JSON.stringify({ method, params })));
      if (reply.error) {
        const error = new Error(reply.error.message);
        error.code = reply.error.code;
        error.data = reply.error.data;
        throw error;
      }
      return reply.result;
    },
    on() {},
    removeListener() {},
  };
  const info = Object.freeze({
    uuid: '0b1c7a2e-6a7e-4f5e-9d7c-3b0f8f9f1a11',
    name: 'MetaMask Flask',
    icon: 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 8 8%22%3E%3Ccircle cx=%224%22 cy=%224%22 r=%224%22 fill=%22%23f6851b%22/%3E%3C/svg%3E',
    rdns: 'io.metamask.flask',
  });
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
})();`;
}
