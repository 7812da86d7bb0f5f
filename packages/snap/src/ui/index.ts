export * from './dialogs';
export * from './components';
export * from './screens';
