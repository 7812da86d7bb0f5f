/**
 * JSON-RPC plumbing the services and the snaps share. Pure modules without side effects, and an
 * ES module build (`module`), so a snap bundle keeps only what it uses; lifecycle.ts is Node's.
 */
export * from './error';
export * from './http';
export * from './lifecycle';
