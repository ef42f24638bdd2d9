import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config';

/** JSON logs; secrets that might reach a log line are redacted by path. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { service: 'attestly' },
      redact: {
        paths: [
          'req.headers.authorization',
          'password',
          '*.password',
          'token',
          '*.token',
          'access_token',
          '*.access_token',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
