import pino, { type Logger, type LoggerOptions } from 'pino';
import type { LogLevel } from './server-env.ts';

export type { Logger };

export interface LoggerSettings {
  service: string;
  level: LogLevel;
  format: 'auto' | 'json' | 'pretty';
}

/** Secrets that must never reach a log line, wherever they appear in a request or a bound object. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-sentry-auth"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
];

export function loggerOptions(settings: LoggerSettings): LoggerOptions {
  const pretty = settings.format === 'pretty' || (settings.format === 'auto' && process.stdout.isTTY === true);
  return {
    level: settings.level,
    base: { service: settings.service },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {}),
  };
}

export function createLogger(settings: LoggerSettings): Logger {
  return pino(loggerOptions(settings));
}
