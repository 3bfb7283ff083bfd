import { describe, expect, it } from 'vitest';
import { readFuzzSettings } from '../src/config.ts';

describe('fuzz settings', () => {
  it('default to a short run with a 10 s hang limit and no replay', () => {
    expect(readFuzzSettings({})).toEqual({ runsPerRoute: 8, seed: undefined, path: undefined, timeoutMs: 10_000 });
  });

  it('replay the seed and path a failed run printed', () => {
    const settings = readFuzzSettings({ FUZZ_RUNS: '5000', FUZZ_SEED: '-1515816159', FUZZ_PATH: '2:1:1' });
    expect(settings).toMatchObject({ runsPerRoute: 5000, seed: -1515816159, path: '2:1:1' });
  });

  it('refuse a value that is not a number, naming every bad variable', () => {
    expect(() => readFuzzSettings({ FUZZ_RUNS: 'lots', FUZZ_PATH: 'a:b' })).toThrow(
      /FUZZ_RUNS must be a whole number from 1 to 10000000 \(got "lots"\); FUZZ_PATH must be colon-separated numbers/,
    );
  });
});
