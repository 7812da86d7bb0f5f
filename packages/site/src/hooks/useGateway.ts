import { useCallback, useEffect, useState } from 'react';
import { readSiteConfig } from '../utils/config';
// Only the config hook: the gateway page bundles nothing of the snap client.
import { useSiteConfig } from './useSiteConfig';

/** A key's usage today, as the gateway's free GET /v3/<KEY>/usage answers it. */
export interface Usage {
  total: number;
  limit: number;
  left: number;
  plan: string;
  methods: Record<string, number>;
  lastHour: { minute: string; credits: number }[];
  refused?: Record<string, number>;
  controls?: {
    secret: { set: boolean; required: boolean };
    jwt: { required: boolean; publicKeys: { name: string; alg: string }[] };
    allow: Record<'origins' | 'userAgents' | 'contracts' | 'methods', string[]>;
  };
}

/** A JSON-RPC call's answer as the page shows it: HTTP status, body, credits it cost. */
export interface GatewayAnswer {
  status: number;
  text: string;
  credits: string;
}

/** The build-time settings: what the page shows before it has read its URL. */
const BUILT = readSiteConfig('');

/**
 * The gateway and API key the Gateway page uses (the site config's ?gateway= and ?key=, then
 * what the user types), the key's usage and the page's last error.
 */
export function useGateway() {
  const config = useSiteConfig();
  const [gateway, setGateway] = useState(BUILT.gatewayUrl);
  const [key, setKey] = useState(BUILT.gatewayKey);
  // Set once the URL's ?gateway= / ?key= are applied: typing before that would be overwritten.
  const [ready, setReady] = useState(false);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    if (!config) return;
    setGateway(config.gatewayUrl);
    setKey(config.gatewayKey);
    setReady(true);
  }, [config]);

  const rpc = useCallback(
    async (method: string, params: unknown[]): Promise<GatewayAnswer> => {
      const response = await fetch(`${gateway}/v3/${key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const cost = response.headers.get('x-credits-cost');
      const left = response.headers.get('x-credits-remaining');
      const credits = cost === null ? '' : ` · ${cost} credits${left ? `, ${left} left` : ''}`;
      return { status: response.status, text: await response.text(), credits };
    },
    [gateway, key],
  );

  const loadUsage = useCallback(async () => {
    setError('');
    try {
      const response = await fetch(`${gateway}/v3/${key}/usage`);
      const body = await response.json();
      if (!response.ok) throw new Error(body.error?.message ?? `HTTP ${response.status}`);
      setUsage(body as Usage);
    } catch (e) {
      setUsage(null);
      setError(e instanceof Error ? e.message : String(e));
    }
  }, [gateway, key]);

  return { gateway, setGateway, key, setKey, ready, usage, error, setError, rpc, loadUsage };
}
