export { createApp, type AppOptions } from './app';
export { bootstrap } from './bootstrap';
export { loadConfig, ConfigError, type Config } from './config';
export { createLogger } from './logger';
export type { Deps } from './core/deps';
