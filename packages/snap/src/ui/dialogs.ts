/**
 * Dialog helpers. Every action that signs or changes something asks first with `confirm`.
 * Every dialog names the site that asked for it: the helpers take the request's origin and put
 * its host at the top, so no screen can forget it.
 */
import type { JSXElement } from '@metamask/snaps-sdk/jsx';

import { invalidParams } from '../errors';
import { SiteHeader } from './components';

/**
 * MetaMask refuses a dialog whose JSON is longer than 10,000,000 characters (SnapInterface-
 * Controller MAX_UI_CONTENT_SIZE); kept a little below it. Dialogs show everything they are given
 * (they scroll), so content beyond this is refused as a whole, never shown cut.
 */
export const MAX_DIALOG_SIZE = 9_000_000;

function withSite(origin: string, content: JSXElement): JSXElement {
  return SiteHeader({ origin, children: content });
}

function assertShowable(content: JSXElement): void {
  const size = JSON.stringify(content).length;
  if (size > MAX_DIALOG_SIZE) {
    throw invalidParams(
      'params',
      `is too large to show in full for review (${size} characters of dialog, at most ${MAX_DIALOG_SIZE}): send a smaller request`,
    );
  }
}

/** A confirmation dialog for the site at `origin`: true when the user approved. */
export async function confirm(origin: string, content: JSXElement): Promise<boolean> {
  const shown = withSite(origin, content);
  assertShowable(shown);
  const result = await snap.request({
    method: 'snap_dialog',
    params: { type: 'confirmation', content: shown },
  });
  return result === true;
}

export async function alert(origin: string, content: JSXElement): Promise<void> {
  const shown = withSite(origin, content);
  assertShowable(shown);
  await snap.request({ method: 'snap_dialog', params: { type: 'alert', content: shown } });
}
