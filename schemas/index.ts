export * from './material';
export * from './cards';
export * from './notes';
export * from './config';
