/** EIP-1193 provider and EIP-6963 discovery. */

export interface RequestArguments {
  method: string;
  params?: unknown;
}

export interface Eip1193Provider {
  request(args: RequestArguments): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener?(event: string, listener: (...args: unknown[]) => void): unknown;
}

export interface Eip6963ProviderInfo {
  uuid: string;
  name: string;
  icon: string;
  rdns: string;
}

export interface Eip6963ProviderDetail {
  info: Eip6963ProviderInfo;
  provider: Eip1193Provider;
}

/** The subset of `window` that discovery uses, so it can run against a fake in tests. */
export interface DiscoveryWindow {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
  dispatchEvent(event: Event): boolean;
  ethereum?: Eip1193Provider;
}

export const FLASK_RDNS = 'io.metamask.flask';
export const METAMASK_RDNS = 'io.metamask';

export interface DiscoveredProvider {
  provider: Eip1193Provider;
  /** rdns of the announcing wallet, or 'window.ethereum' for the injected fallback. */
  source: string;
  info?: Eip6963ProviderInfo;
}

export interface DiscoverOptions {
  /** How long to collect announcements before choosing (ms). Default 500. */
  timeoutMs?: number;
  window?: DiscoveryWindow;
}

function isProviderDetail(value: unknown): value is Eip6963ProviderDetail {
  if (typeof value !== 'object' || value === null) return false;
  const detail = value as Partial<Eip6963ProviderDetail>;
  return typeof detail.info?.rdns === 'string' && typeof detail.provider?.request === 'function';
}

/** Picks Flask first, then MetaMask; null when neither announced. */
export function chooseProvider(details: Eip6963ProviderDetail[]): Eip6963ProviderDetail | null {
  return (
    details.find((d) => d.info.rdns === FLASK_RDNS) ??
    details.find((d) => d.info.rdns === METAMASK_RDNS) ??
    null
  );
}

/**
 * Asks wallets to announce themselves (EIP-6963) and picks io.metamask.flask, then io.metamask.
 * Resolves early once Flask has announced. Falls back to `window.ethereum`; null when there is
 * no wallet at all.
 */
export function discoverProvider(
  options: DiscoverOptions = {},
): Promise<DiscoveredProvider | null> {
  const win =
    options.window ?? (typeof window === 'undefined' ? undefined : (window as DiscoveryWindow));
  if (!win) return Promise.resolve(null);
  const timeoutMs = options.timeoutMs ?? 500;
  const announced: Eip6963ProviderDetail[] = [];

  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      win.removeEventListener('eip6963:announceProvider', onAnnounce);
      const chosen = chooseProvider(announced);
      if (chosen) {
        resolve({ provider: chosen.provider, source: chosen.info.rdns, info: chosen.info });
      } else if (win.ethereum && typeof win.ethereum.request === 'function') {
        resolve({ provider: win.ethereum, source: 'window.ethereum' });
      } else {
        resolve(null);
      }
    };
    function onAnnounce(event: Event) {
      const detail = (event as CustomEvent<unknown>).detail;
      if (!isProviderDetail(detail)) return;
      if (!announced.some((d) => d.info.uuid === detail.info.uuid)) announced.push(detail);
      if (detail.info.rdns === FLASK_RDNS) finish();
    }
    win.addEventListener('eip6963:announceProvider', onAnnounce);
    const timer = setTimeout(finish, timeoutMs);
    win.dispatchEvent(new Event('eip6963:requestProvider'));
  });
}
