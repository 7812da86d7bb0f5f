/**
 * JSON-RPC plumbing the services and the snaps share. Pure modules without side effects, and an ES
 * module build (`module`), so a snap bundle keeps only what it uses; body.ts and lifecycle.ts are
 * Node's.
 */
export * from './body';
export * from './error';
export * from './http';
export * from './lifecycle';
