import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { OptimizeResponseSchema, TraceOptionsSchema, TraceResponseSchema } from '@trove/proto/vectorize/v1';
import { validateOptions, vectorize } from '@trove/vectorize';
import { describe, expect, it } from 'vitest';
import {
  optimizedFromWire,
  optimizedToWire,
  optionsFromWire,
  optionsToWire,
  outputFromWire,
  outputToWire,
  parseTarget,
  settingsFromWire,
} from '../src/index.ts';
import { packPaths, unpackPaths } from '../src/packed-paths.ts';
import { flatImage } from './images.ts';

describe('the wire format', () => {
  it('carries every tracing option through protobuf bytes unchanged, and no option that was not set', () => {
    const options = validateOptions({
      engine: 'spline',
      preset: 'photo',
      profile: 'logo',
      color_mode: 'binary',
      hierarchical: 'cutout',
      path_simplify: 'polygon',
      color_precision: '7',
      filter_speckle: '0',
      layer_difference: '24',
      corner_threshold: '120',
      length_threshold: '3.75',
      max_iterations: '12',
      splice_threshold: '30',
      path_precision: '0',
    });
    const bytes = toBinary(TraceOptionsSchema, create(TraceOptionsSchema, optionsToWire(options)));
    expect(validateOptions(optionsFromWire(fromBinary(TraceOptionsSchema, bytes)))).toEqual(options);
    const none = fromBinary(
      TraceOptionsSchema,
      toBinary(TraceOptionsSchema, create(TraceOptionsSchema, optionsToWire({}))),
    );
    expect(optionsFromWire(none)).toEqual({});
  });

  it('carries a trace with its paths and document, and refuses an engine it does not know', () => {
    const traced = vectorize(flatImage(), { engine: 'spline' });
    const output = {
      svg: traced.svg,
      width: traced.width,
      height: traced.height,
      engineUsed: traced.engineUsed,
      pathCount: traced.paths.length,
      paths: packPaths(traced.paths),
      document: new Uint8Array([1, 2, 3]),
    };
    const bytes = toBinary(TraceResponseSchema, create(TraceResponseSchema, outputToWire(output)));
    const back = outputFromWire(fromBinary(TraceResponseSchema, bytes));
    expect(back).toEqual(output);
    expect(unpackPaths(back.paths ?? expect.fail('no paths'))).toEqual(traced.paths);
    const plain = outputFromWire(
      fromBinary(
        TraceResponseSchema,
        toBinary(
          TraceResponseSchema,
          create(TraceResponseSchema, outputToWire({ ...output, paths: undefined, document: undefined })),
        ),
      ),
    );
    expect(plain.paths).toBeUndefined();
    expect(plain.document).toBeUndefined();
    expect(() => outputFromWire(create(TraceResponseSchema, { engineUsed: 'auto' }))).toThrow(/unknown engine/);
  });

  it('checks optimiser settings', () => {
    expect(settingsFromWire({ preset: 'safe', multipass: false, iterations: 0 })).toEqual({
      preset: 'safe',
      multipass: false,
      iterations: 1,
    });
    expect(() => settingsFromWire({ preset: 'best', multipass: false, iterations: 1 })).toThrow(
      /preset must be one of default, safe, none/,
    );
    expect(() => settingsFromWire({ preset: 'default', multipass: true, iterations: 101 })).toThrow(
      /iterations must be from 1 to 100/,
    );
  });

  it('carries the count of removed unsafe pieces in its own field, and reads the comment older workers sent', () => {
    const sent = create(OptimizeResponseSchema, optimizedToWire({ svg: '<svg/>', removed: 0 }));
    const received = fromBinary(OptimizeResponseSchema, toBinary(OptimizeResponseSchema, sent));
    expect(received.unsafeRemoved).toBe(0);
    expect(optimizedFromWire(received)).toEqual({ svg: '<svg/>', removed: 0 });
    // A worker from before the field: unset field, count in a leading comment.
    const legacy = fromBinary(
      OptimizeResponseSchema,
      toBinary(OptimizeResponseSchema, create(OptimizeResponseSchema, { svg: '<!--trove-removed:3--><svg/>' })),
    );
    expect(legacy.unsafeRemoved).toBeUndefined();
    expect(optimizedFromWire(legacy)).toEqual({ svg: '<svg/>', removed: 3 });
    // With the field set, a comment the document itself begins with is content, not a count.
    expect(optimizedFromWire({ svg: '<!--trove-removed:9--><svg/>', unsafeRemoved: 1 })).toEqual({
      svg: '<!--trove-removed:9--><svg/>',
      removed: 1,
    });
    expect(() => optimizedFromWire({ svg: '<svg/>' })).toThrow(/without its count/);
  });

  it('reads worker targets: one name, a dns:/// name, IPv6, or a list', () => {
    expect(parseTarget('dns:///vectorizer-worker:50052')).toEqual([{ host: 'vectorizer-worker', port: 50052 }]);
    expect(parseTarget('127.0.0.1:1,dns:///b.svc:2,[::1]:3')).toEqual([
      { host: '127.0.0.1', port: 1 },
      { host: 'b.svc', port: 2 },
      { host: '::1', port: 3 },
    ]);
    expect(() => parseTarget('http://worker:50052')).toThrow(/not host:port/);
    expect(() => parseTarget('worker')).toThrow(/not host:port/);
  });
});
