/**
 * The back office API (spec 02 §3, §5, §7, §9): administrator sign-in with mandatory TOTP and every
 * `/api/v1/admin` call. Query strings arrive as text; the schemas turn them into numbers, booleans and dates and
 * answer 422 with a clear message for anything out of range.
 */
export * from './constants';
export * from './fields';
export * from './sign-in';
export * from './partners';
export * from './users';
export * from './verifications';
export * from './tokens';
export * from './system';
export * from './audit';
