/**
 * The cached test builds (a snap with other build variables, its variants per node URL, the
 * site's production build) and the static server that serves them.
 */
export * from './staticServer';
export * from './snapBuild';
export * from './snapVariant';
export * from './siteBuild';
export { newestMtime } from './cacheFolders';
