import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths pino blanks on every line: credentials, cookies, passwords and tokens never reach the log. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-api-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.key',
  '*.apiKey',
  '*.secret',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ sync: false }),
  );
}
