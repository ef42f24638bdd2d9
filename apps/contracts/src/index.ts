export * from './constants';
export * from './errors';
export * from './fields';
export * from './users';
export * from './verification';
export * from './partners';
export * from './oauth';
export * from './web';
