import { type EnvVar, env, loadConfig } from '@trove/service-kit';

/** The fuzz runs' variables (README: Testing), read here and nowhere else. */
export const FUZZ_ENV = {
  FUZZ_RUNS: env.int({ description: 'Requests per route in a fuzz run', default: 8, min: 1, max: 10_000_000 }),
  FUZZ_SEED: env.int({
    description: 'Replays a failed run: the seed its report printed',
    min: -(2 ** 31),
    max: 2 ** 31 - 1,
  }) as EnvVar<number | undefined>,
  FUZZ_PATH: env.optionalString({
    description: 'Replays a failed run: the path its report printed (with FUZZ_SEED)',
    pattern: /^\d+(:\d+)*$/,
    hint: 'colon-separated numbers, e.g. 2:1:1',
  }),
  FUZZ_TIMEOUT_MS: env.int({
    description: 'A request that takes longer than this is a hang',
    default: 10_000,
    min: 1,
    max: 3_600_000,
  }),
};

/** How long runs are: short in CI, as long as asked for with FUZZ_RUNS (per route). */
export function readFuzzSettings(source: Record<string, string | undefined> = process.env) {
  const config = loadConfig(FUZZ_ENV, source);
  return {
    runsPerRoute: config.FUZZ_RUNS,
    seed: config.FUZZ_SEED,
    path: config.FUZZ_PATH,
    /** A request that takes longer than this is a hang. */
    timeoutMs: config.FUZZ_TIMEOUT_MS,
  };
}
