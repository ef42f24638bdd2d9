export * from './constants';
export * from './errors';
export * from './fields';
export * from './users';
