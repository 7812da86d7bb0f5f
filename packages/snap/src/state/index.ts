export * from './schema';
export * from './store';
export * from './accessors';
export { migrateState } from './migrations';
