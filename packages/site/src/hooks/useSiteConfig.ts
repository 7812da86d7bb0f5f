import { useEffect, useState } from 'react';
import { readSiteConfig, type SiteConfig } from '../utils/config';

/**
 * The page's settings (config.ts) as the page URL sets them. null while Gatsby renders the page
 * on the server and until the first effect in the browser, where the URL is known.
 */
export function useSiteConfig(): SiteConfig | null {
  const [config, setConfig] = useState<SiteConfig | null>(null);
  useEffect(() => setConfig(readSiteConfig(window.location.search)), []);
  return config;
}
