/**
 * The wallet side: snaps in snaps-simulation outside snaps-jest with the dialog helpers every
 * snap test uses, an injected "MetaMask Flask" for browser tests, and headless Chromium.
 */
export * from './snapWallet';
export * from './flask';
export * from './browser';
