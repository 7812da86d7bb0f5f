import React from 'react';
import type { Panel } from '../hooks';

interface Props {
  /** The panel the action belongs to: its result shows there, and it waits for the panel. */
  panel: Panel;
  /** The action's name in the panel (which button shows `busyLabel`). */
  action: string;
  run(): Promise<unknown>;
  /** The label while this action runs (default: the children). */
  busyLabel?: string;
  disabled?: boolean;
  className?: string;
  children: React.ReactNode;
}

/** A button that runs one action of a panel: disabled while the panel is busy. */
export function ActionButton({
  panel,
  action,
  run,
  busyLabel,
  disabled,
  className = 'btn',
  children,
}: Props) {
  return (
    <button
      type="button"
      className={className}
      onClick={() => void panel.run(action, run)}
      disabled={disabled || panel.busy !== null}
    >
      {panel.busy === action && busyLabel ? busyLabel : children}
    </button>
  );
}
