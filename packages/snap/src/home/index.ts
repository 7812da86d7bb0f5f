export { HomeScreen, REVOKE_PREFIX } from './HomeScreen';
export { readHomeOverview } from './overview';
