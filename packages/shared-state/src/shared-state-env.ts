import { type EnvSchema, env } from '@trove/service-kit';

/** The variables of every app that shares rate limits, caches or messages between replicas. */
export function sharedStateEnv() {
  return {
    REDIS_URL: env.url({
      description: 'Redis shared by replicas for rate limits, caches and pub/sub; unset keeps them in this process',
      protocols: ['redis:', 'rediss:'],
    }),
    REDIS_PREFIX: env.string({
      description:
        'Start of every Redis key and pub/sub channel of this deployment: give each deployment sharing a Redis server its own',
      default: 'trove:',
      pattern: /^[!-~]{1,64}$/,
      hint: 'up to 64 printable characters without spaces, e.g. `trove-staging:`',
    }),
  } satisfies EnvSchema;
}

/** The key prefix of one service of a deployment, e.g. `trove:errors:`. */
export function serviceKeyPrefix(config: { readonly REDIS_PREFIX: string }, service: string): string {
  return `${config.REDIS_PREFIX}${service}:`;
}
