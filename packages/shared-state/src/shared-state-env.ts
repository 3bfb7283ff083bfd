import { type EnvSchema, env } from '@trove/service-kit';

/** The variable of every app that shares rate limits, caches or messages between replicas. */
export function sharedStateEnv() {
  return {
    REDIS_URL: env.url({
      description: 'Redis shared by replicas for rate limits, caches and pub/sub; unset keeps them in this process',
      protocols: ['redis:', 'rediss:'],
    }),
  } satisfies EnvSchema;
}
