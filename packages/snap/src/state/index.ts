export * from './schema';
export * from './store';
export * from './records';
export { migrateState } from './migrations';
