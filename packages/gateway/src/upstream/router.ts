import type { ChainConfig } from '../config';
import type { Chain } from './chain';

/**
 * Picks the chain for a request: by the path prefix `/<chain name>/v3/...` when there is one
 * (clients without DNS of their own), else by the Host header: exact host name first, then `*`.
 */
export class Router {
  private readonly names: Map<string, Chain>;

  constructor(
    readonly chains: Chain[],
    private readonly hosts: Map<string, Chain>,
  ) {
    this.names = new Map(chains.map((chain) => [chain.name, chain]));
  }

  /** The chain named in a path prefix. */
  byName(name: string): Chain | undefined {
    return this.names.get(name);
  }

  static from(configs: ChainConfig[], build: (c: ChainConfig) => Chain): Router {
    const chains = configs.map(build);
    const hosts = new Map<string, Chain>();
    configs.forEach((config, i) => {
      for (const host of config.hosts)
        if (!hosts.has(host.toLowerCase())) hosts.set(host.toLowerCase(), chains[i]);
    });
    return new Router(chains, hosts);
  }

  /** Host header -> chain, remembered (a gateway sees few distinct Host values). */
  private readonly seen = new Map<string, Chain | undefined>();

  chainFor(hostHeader: string | undefined): Chain | undefined {
    const key = hostHeader ?? '';
    if (this.seen.has(key)) return this.seen.get(key);
    const chain = this.resolve(key);
    if (this.seen.size > 1000) this.seen.clear();
    this.seen.set(key, chain);
    return chain;
  }

  private resolve(hostHeader: string): Chain | undefined {
    const host = (hostHeader ?? '')
      .replace(/:\d+$/, '')
      .replace(/^\[|\]$/g, '')
      .toLowerCase();
    return this.hosts.get(host) ?? this.hosts.get('*');
  }
}
