/**
 * Dialog helpers. Every action that signs or changes something asks first with `confirm`.
 */
import type { ComponentOrElement } from '@metamask/snaps-sdk';

import { invalidParams } from '../rpc/errors';

/**
 * MetaMask refuses a dialog whose JSON is longer than 10,000,000 characters (SnapInterface-
 * Controller MAX_UI_CONTENT_SIZE); kept a little below it. Dialogs show everything they are given
 * (they scroll), so content beyond this is refused as a whole, never shown cut.
 */
export const MAX_DIALOG_SIZE = 9_000_000;

function assertShowable(content: ComponentOrElement): void {
  const size = JSON.stringify(content).length;
  if (size > MAX_DIALOG_SIZE) {
    throw invalidParams(
      'params',
      `is too large to show in full for review (${size} characters of dialog, at most ${MAX_DIALOG_SIZE}): send a smaller request`,
    );
  }
}

export async function confirm(content: ComponentOrElement): Promise<boolean> {
  assertShowable(content);
  const result = await snap.request({
    method: 'snap_dialog',
    params: { type: 'confirmation', content },
  });
  return result === true;
}

export async function alert(content: ComponentOrElement): Promise<void> {
  assertShowable(content);
  await snap.request({ method: 'snap_dialog', params: { type: 'alert', content } });
}
