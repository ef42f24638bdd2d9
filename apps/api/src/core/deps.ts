import type { Logger } from 'pino';
import type { VisionEngine } from '@attestly/models';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { Clock } from '../lib/clock';
import type { RandomSource } from '../lib/random';
import type { Mailer, PhoneNotifier } from './notifications';

/**
 * What every service receives (STYLE.md: a small deps object instead of singletons). It lives below the modules
 * so that they can name it without importing the composition root (bootstrap.ts builds it).
 */
export interface Deps {
  config: Config;
  db: Database;
  logger: Logger;
  clock: Clock;
  mailer: Mailer;
  phone: PhoneNotifier;
  /** On-box face and document models; absent where they are not loaded (facial and document routes → 503). */
  vision?: VisionEngine | null;
  /** Unpredictable choices (liveness challenges); the CSPRNG unless a test injects a seeded source. */
  random?: RandomSource;
}
