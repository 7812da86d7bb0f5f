export * from './dialogs';
export * from './components';
export * from './screens';
export * from './transactionFields';
