/**
 * Dialog helpers. Every action that signs or changes something asks first with `confirm`.
 */
import type { ComponentOrElement } from '@metamask/snaps-sdk';

export async function confirm(content: ComponentOrElement): Promise<boolean> {
  const result = await snap.request({
    method: 'snap_dialog',
    params: { type: 'confirmation', content },
  });
  return result === true;
}

export async function alert(content: ComponentOrElement): Promise<void> {
  await snap.request({ method: 'snap_dialog', params: { type: 'alert', content } });
}
