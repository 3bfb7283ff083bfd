import { databaseEnv } from '@trove/data';
import { type ConfigOf, connectionEnv, env, loadConfig, serverEnv } from '@trove/service-kit';
import { sharedStateEnv } from '@trove/shared-state';

const MIB = 1024 * 1024;

/** Every environment variable errors-api reads. Nothing else in the app touches process.env. */
export const configSchema = {
  ...serverEnv({ port: 8769, serviceName: 'errors-api' }),
  ...connectionEnv(),
  ...databaseEnv('errors-api'),
  ...sharedStateEnv(),
  PUBLIC_URL: env.url({
    description:
      'Base URL that SDKs reach this service at, used to build DSNs; unset means the scheme and host of each dashboard request',
    protocols: ['http:', 'https:'],
  }),
  ORGANIZATION_SLUG: env.string({
    description:
      'The one organization of this deployment, as sentry-cli names it (`--org`, `SENTRY_ORG`) in its upload routes; any other answers 404',
    default: 'trove',
    pattern: /^[a-z0-9][a-z0-9_-]{0,49}$/,
    hint: 'a slug: lowercase letters, digits, - and _, up to 50 characters',
  }),
  COOKIE_SECURE: env.oneOf(['auto', 'always', 'never'] as const, {
    description: 'Whether the session cookie is marked Secure; `auto` marks it when the request came over https',
    default: 'auto',
  }),
  SESSION_TTL_HOURS: env.int({
    description: 'How long a session lasts after login before the user must sign in again',
    default: 336,
    min: 1,
    max: 8760,
  }),
  LIVE_SESSION_CHECK_SECONDS: env.int({
    description:
      'How often each open WebSocket checks that its session still exists; one that ended (logout, password change, expiry) is closed with 1008',
    default: 30,
    min: 1,
    max: 3600,
  }),
  LOGIN_ATTEMPTS_PER_MINUTE: env.int({
    description: 'Sign-in attempts allowed per minute, counted per client address and per e-mail',
    default: 10,
    min: 1,
    max: 10_000,
  }),
  INGEST_RATE_LIMIT_PER_MINUTE: env.int({
    description:
      'Events each project may send per minute (a burst of this size, refilled evenly); 0 turns the limit off',
    default: 60_000,
    min: 0,
    max: 100_000_000,
  }),
  INGEST_MAX_REQUEST_BYTES: env.int({
    description: 'Largest ingest request body as sent (compressed or not); larger ones get 413',
    default: 20 * MIB,
    min: 1024,
    max: 1024 * MIB,
  }),
  INGEST_MAX_DECOMPRESSED_BYTES: env.int({
    description: 'Largest ingest body after decompression; a body that inflates past it (a gzip bomb) gets 413',
    default: 100 * MIB,
    min: 1024,
    max: 4096 * MIB,
  }),
  INGEST_MAX_EVENT_BYTES: env.int({
    description: 'Largest single event item; larger ones get 413',
    default: MIB,
    min: 1024,
    max: 256 * MIB,
  }),
  INGEST_BATCH_MAX: env.int({
    description: 'Most events written to the database in one statement (events arriving together share a commit)',
    default: 256,
    min: 1,
    max: 10_000,
  }),
  WEBHOOK_TIMEOUT_MS: env.int({
    description: 'How long one webhook call may take before it is abandoned and retried',
    default: 5000,
    min: 100,
    max: 120_000,
  }),
  WEBHOOK_MAX_ATTEMPTS: env.int({
    description: 'Attempts per webhook delivery (timeouts, network errors, 429 and 5xx are retried)',
    default: 3,
    min: 1,
    max: 10,
  }),
  WEBHOOK_RETRY_DELAY_MS: env.int({
    description: 'Delay before the first webhook retry; each later retry waits twice as long',
    default: 1000,
    min: 0,
    max: 600_000,
  }),
  WEBHOOK_ALLOWED_NETWORKS: env.list({
    description:
      'Non-public address ranges webhooks may call besides the public internet: `loopback`, `private` (RFC 1918, ULA, CGNAT), `link-local`; empty allows public addresses only',
    default: [],
    itemPattern: /^(loopback|private|link-local)$/,
    hint: 'a comma-separated list of loopback, private, link-local',
  }),
};

export type ErrorsConfig = ConfigOf<typeof configSchema>;

export function readConfig(source: Record<string, string | undefined> = process.env): ErrorsConfig {
  return loadConfig(configSchema, source);
}
