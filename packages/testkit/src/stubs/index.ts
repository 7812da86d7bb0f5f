/**
 * Servers a test writes or scripts the answers of: HTTP and silent TCP stubs, an upstream that
 * misbehaves when told to, and a proxy that counts round trips.
 */
export * from './stubServers';
export * from './scriptedUpstream';
export * from './countingProxy';
