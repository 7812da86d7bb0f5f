/**
 * Snaps in @metamask/snaps-simulation outside snaps-jest (browser tests, benches), and the dialog
 * helpers every snap test uses, whichever runner installed the snap (snaps-jest's requests and
 * snaps-simulation's have the same getInterface()).
 */
import { profiled } from '../profile';
import { serveDirectory, type StaticServer } from '../builds/staticServer';

/** A snap UI element as the simulation hands it over (JSX-like). */
export interface SnapElement {
  type?: string;
  props?: Record<string, unknown>;
}

/** An open snap dialog: its type, its content and its buttons. */
export interface SnapDialog {
  id: string;
  type?: string;
  content: unknown;
  ok(): Promise<void>;
  cancel(): Promise<void>;
}

/** A pending snap request that may open a dialog (snaps-jest's and snaps-simulation's). */
export interface PendingDialog {
  getInterface(): Promise<unknown>;
}

export interface SnapReply {
  response: { result?: unknown; error?: { code?: number; message?: string; data?: unknown } };
}

export type SnapRequest = Promise<SnapReply> & PendingDialog;

export interface SnapRequestOptions {
  method: string;
  params?: unknown;
  origin?: string;
}

/** A snap installed in snaps-simulation (the members the tests and benches use). */
export interface SimulatedSnap {
  request(options: SnapRequestOptions): SnapRequest;
  onKeyringRequest(options: SnapRequestOptions): SnapRequest;
  executionService: { terminateAllSnaps?: () => Promise<void> };
}

/**
 * All text of a dialog's JSX tree (children, and every string prop such as an address or a
 * label), one piece a line: what the user was shown.
 */
export function dialogText(content: unknown): string {
  const parts: string[] = [];
  const walk = (node: unknown): void => {
    if (node === null || node === undefined || typeof node === 'boolean') return;
    if (typeof node === 'string' || typeof node === 'number') {
      parts.push(String(node));
      return;
    }
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (typeof node === 'object') {
      const { props } = node as SnapElement;
      for (const [key, value] of Object.entries(props ?? {})) {
        if (key === 'children') walk(value);
        else if (typeof value === 'string') parts.push(value);
      }
    }
  };
  walk(content);
  return parts.join('\n');
}

/** Waits for the dialog a pending request opens and returns it (content, ok, cancel). */
export async function dialogOf(pending: PendingDialog): Promise<SnapDialog> {
  return (await pending.getInterface()) as SnapDialog;
}

/** Approves the dialog the request opens; resolves with the request's answer. */
export async function approve<P extends PendingDialog & PromiseLike<unknown>>(
  pending: P,
): Promise<Awaited<P>> {
  await (await dialogOf(pending)).ok();
  return (await pending) as Awaited<P>;
}

/** Declines (cancels) the dialog the request opens; resolves with the request's answer. */
export async function decline<P extends PendingDialog & PromiseLike<unknown>>(
  pending: P,
): Promise<Awaited<P>> {
  await (await dialogOf(pending)).cancel();
  return (await pending) as Awaited<P>;
}

/** Approves or declines the dialog the request opens and returns the dialog's text. */
export async function answerDialog(pending: PendingDialog, approved: boolean): Promise<string> {
  const dialog = await dialogOf(pending);
  const text = dialogText(dialog.content);
  await (approved ? dialog.ok() : dialog.cancel());
  return text;
}

// Typed here rather than imported: these packages ship their types only through `exports` maps,
// which this package's module resolution does not read.
const simulation = () =>
  require('@metamask/snaps-simulation') as {
    installSnap(
      snapId: string,
      options: { executionService: unknown; options?: Record<string, unknown> },
    ): Promise<SimulatedSnap>;
  };
const executionService = () =>
  (require('@metamask/snaps-controllers/node') as { NodeThreadExecutionService: unknown })
    .NodeThreadExecutionService;

/**
 * Installs the snap with id `snapId` (`local:http://127.0.0.1:PORT` of a served snap folder) in
 * snaps-simulation, its code running in Node worker threads. `options` are the simulation's
 * (for example `{ secretRecoveryPhrase }`).
 */
export function installSimulatedSnap(
  snapId: string,
  options?: Record<string, unknown>,
): Promise<SimulatedSnap> {
  return profiled('snap-install', snapId.replace(/:\d+/, ''), () =>
    simulation().installSnap(snapId, {
      executionService: executionService(),
      ...(options ? { options } : {}),
    }),
  );
}

export interface ServedSnap extends StaticServer {
  /** `local:` + the folder's URL: the id snaps-simulation and snaps-jest install. */
  snapId: string;
}

/** Serves a built snap folder (see ensureSnapBuild) on 127.0.0.1 for installing. */
export async function serveSnap(folder: string): Promise<ServedSnap> {
  const server = await serveDirectory(folder);
  return { ...server, snapId: `local:${server.url}` };
}
