export { HomeScreen } from './HomeScreen';
export { readHomeOverview } from './overview';
