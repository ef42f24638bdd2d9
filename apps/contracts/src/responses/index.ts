// The answers' schemas; the helpers in common.ts (isoDate, agree, …) stay inside this folder.
export {
  errorEnvelopeSchema,
  healthSchema,
  messageSchema,
  readinessSchema,
  siteConfigSchema,
} from './common';
export * from './users';
export * from './verification';
export * from './partners';
export * from './partner-portal';
export * from './admin';
export * from './admin-operations';
