/**
 * @l2wallet/testkit: the one home of test and dev plumbing (tests, benches, `npm start`),
 * grouped by concern. See README.md.
 */
export * from './constants';
export * from './prerequisites';
export * from './processes';
export * from './jsonRpc';
export * from './starknet';
export * from './profile';
export * from './services';
export * from './builds';
export * from './wallets';
export * from './stubs';
