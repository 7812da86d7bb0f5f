export * from './types';
export * from './errors';
export * from './provider';
export * from './client';
// The Starknet wallet API object (get-starknet v4), in wallet-api/: wallet.ts composes it from
// router.ts (each request, checked by payloads.ts first), session.ts (the connection) and
// events.ts (the listeners); constants.ts is what it declares, errors.ts the wallet API's codes.
export * from './wallet-api/constants';
export * from './wallet-api/errors';
export * from './wallet-api/wallet';
export * from './keyring';
export * from './wallet-standard';
export * from './setup';
