/**
 * How a requesting site is named to the user. MetaMask passes the caller's origin to
 * onRpcRequest (`https://app.example:8443`); the user is shown its host, which is what the
 * browser's address bar shows. Anything that is not an http(s) URL (another snap's `npm:` id,
 * MetaMask's own origin names) is shown as given.
 */
const MAX_SHOWN = 200;

export function siteName(origin: string): string {
  try {
    const url = new URL(origin);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.host) {
      return url.host;
    }
  } catch {
    // Not a URL: shown as given below.
  }
  const text = origin.trim() || '(unknown site)';
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}
