/**
 * The Node side of the injected "MetaMask Flask": wallet_getSnaps, wallet_requestSnaps and
 * wallet_invokeSnap run the real snap bundle in @metamask/snaps-simulation. Every dialog the snap
 * (or the install) opens is approved or declined according to what the test queued.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

// Typed here rather than imported: these packages ship types only through `exports` maps.
interface JsxLike {
  type?: string;
  props?: Record<string, unknown>;
}
interface SimulatedInterface {
  id: string;
  type?: string;
  content: JsxLike;
  ok?: () => Promise<void>;
  cancel?: () => Promise<void>;
}
interface SimulatedResponse {
  response: { result?: unknown; error?: { code?: number; message?: string; data?: unknown } };
}
type SimulatedRequest = Promise<SimulatedResponse> & {
  getInterface(): Promise<SimulatedInterface>;
};
interface SimulatedSnap {
  request(options: { method: string; params?: unknown; origin?: string }): SimulatedRequest;
  executionService: { terminateAllSnaps?: () => Promise<void> };
}
const { installSnap } = require('@metamask/snaps-simulation') as {
  installSnap(
    snapId: string,
    options: { executionService: unknown; options?: Record<string, unknown> },
  ): Promise<SimulatedSnap>;
};
const { NodeThreadExecutionService } = require('@metamask/snaps-controllers/node') as {
  NodeThreadExecutionService: unknown;
};

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

/** All visible text of a snap JSX element, for logs and assertions on dialog content. */
export function jsxText(node: unknown): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(jsxText).filter(Boolean).join(' ');
  const props = (node as JsxLike).props ?? {};
  const parts = [props.children, props.value, props.label, props.alt].map(jsxText).filter(Boolean);
  return parts.join(' ');
}

export class SimulatedFlask {
  readonly snapId: string;
  readonly dialogs: DialogRecord[] = [];
  readonly calls: string[] = [];
  private readonly version: string;
  private readonly queued: DialogAction[] = [];
  private snap: SimulatedSnap | null = null;

  constructor(snapFolderUrl: string, snapFolder: string) {
    this.snapId = `local:${snapFolderUrl}`;
    const manifest = JSON.parse(
      readFileSync(path.join(snapFolder, 'snap.manifest.json'), 'utf8'),
    ) as {
      version: string;
    };
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
          return {
            error: {
              code: -32601,
              message: `The method "${method}" does not exist / is not available.`,
            },
          };
      }
    } catch (error) {
      return {
        error: { code: -32603, message: error instanceof Error ? error.message : String(error) },
      };
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
    if (unknown) return { error: { code: -32603, message: `Failed to fetch snap "${unknown}".` } };
    // MetaMask shows an install/connect prompt here.
    const action = this.nextAction();
    this.dialogs.push({
      method: 'wallet_requestSnaps',
      type: 'install',
      text: `Connect ${this.snapId}`,
      action,
    });
    if (action === 'decline')
      return { error: { code: 4001, message: 'User rejected the request.' } };
    if (!this.snap) {
      this.snap = await installSnap(this.snapId, { executionService: NodeThreadExecutionService });
    }
    return { result: { [this.snapId]: this.installedEntry() } };
  }

  private async invokeSnap(
    params: { snapId: string; request: { method: string; params?: unknown } },
    origin: string,
  ): Promise<WalletReply> {
    if (!this.snap || params?.snapId !== this.snapId) {
      return {
        error: {
          code: 4100,
          message: `The snap "${params?.snapId}" is not installed or not connected to this site.`,
        },
      };
    }
    const { method } = params.request;
    const inner = params.request.params;
    // Like MetaMask, a request without params carries no params member at all.
    const request = this.snap.request(
      inner === undefined ? { method, origin } : { method, params: inner, origin },
    );
    let settled = false;
    // A request may open dialogs, one after another; answer each as queued. Requests without a
    // dialog just resolve (getInterface then never answers, which is harmless here).
    const answered = new Set<string>();
    const answerDialogs = async () => {
      while (!settled) {
        const ui = await request.getInterface();
        if (settled) return;
        if (answered.has(ui.id)) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        answered.add(ui.id);
        const action = this.nextAction();
        this.dialogs.push({ method, type: ui.type ?? 'custom', text: jsxText(ui.content), action });
        if (action === 'approve' && ui.ok) await ui.ok();
        else if (ui.cancel) await ui.cancel();
        else if (ui.ok) await ui.ok();
      }
    };
    answerDialogs().catch(() => undefined);
    const { response } = await request;
    settled = true;
    if (response.error) {
      const { code, message, data } = response.error;
      return { error: { code: code ?? -32603, message: message ?? 'Snap error', data } };
    }
    return { result: response.result ?? null };
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
