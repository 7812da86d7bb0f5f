export * from './useAccounts';
export * from './useDevnet';
export * from './usePanel';
export * from './usePlayground';
export * from './useSiteConfig';
export * from './useSnapNetwork';
export * from './useTrackedTransactions';
export * from './useWallet';
