export * from './types';
export * from './errors';
export * from './provider';
export * from './client';
export * from './starknet-window';
export * from './keyring';
