/** Every screen of the snap, drawn from plain data, and the dialogs that show them. */
export * from './components';
export * from './dialogs';
export * from './GrantScreen';
export * from './HomeScreen';
export * from './preview';
export * from './screens';
export * from './site';
export * from './transaction';
export * from './typedData';
