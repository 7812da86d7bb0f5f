/**
 * The JSON-RPC services' CLIs (gateway, paymaster, devnet) end the same way: on SIGINT or
 * SIGTERM the running service is closed, then the process exits 0 (1 when closing failed).
 */

export interface ShutdownOptions {
  /** Called with the signal's name when shutting down begins. */
  onSignal?: (signal: NodeJS.Signals) => void;
  /** A second signal while closing ends the process at once (Node's default) instead of waiting. */
  forceOnSecondSignal?: boolean;
}

/**
 * Listens for SIGINT and SIGTERM from now on; `running(close)` hands over the started service.
 * A signal before that exits at once. Returns `running`, which says whether to go on (false:
 * a signal came while starting, and the process is exiting).
 */
export function closeOnSignals(
  options: ShutdownOptions = {},
): (close: () => Promise<void>) => boolean {
  let close: (() => Promise<void>) | undefined;
  let closing = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    if (options.forceOnSecondSignal) {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    }
    options.onSignal?.(signal);
    (close ? close() : Promise.resolve()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return (service) => {
    close = service;
    return !closing;
  };
}
