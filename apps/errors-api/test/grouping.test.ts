import { describe, expect, it } from 'vitest';
import { eventCulprit, eventTitle, groupEvent, parameterize } from '../src/ingest/grouping.ts';

const frame = (module: string, fn: string, inApp: boolean, lineno = 1) => ({
  module,
  function: fn,
  in_app: inApp,
  lineno,
  filename: `/srv/app/${module}.js`,
});

const exceptionEvent = (frames: object[], type = 'TypeError', value = 'x is undefined') => ({
  exception: { values: [{ type, value, stacktrace: { frames } }] },
});

describe('grouping', () => {
  it('groups by exception type and in-app frames, ignoring line numbers and library frames', () => {
    const a = groupEvent(exceptionEvent([frame('express', 'next', false, 10), frame('orders', 'create', true, 5)]));
    const b = groupEvent(
      exceptionEvent([frame('express', 'dispatch', false, 99), frame('orders', 'create', true, 80)], 'TypeError', 'y'),
    );
    expect(a.method).toBe('stacktrace');
    expect(a.components).toEqual(['TypeError', 'orders:create']);
    expect(b.hash).toBe(a.hash);
    expect(groupEvent(exceptionEvent([frame('orders', 'update', true)])).hash).not.toBe(a.hash);
    expect(groupEvent(exceptionEvent([frame('orders', 'create', true)], 'RangeError')).hash).not.toBe(a.hash);
  });

  it('uses every frame when none is in-app, and collapses recursion', () => {
    const recursive = [frame('lib', 'walk', false), frame('lib', 'walk', false), frame('lib', 'walk', false)];
    expect(groupEvent(exceptionEvent(recursive)).components).toEqual(['TypeError', 'lib:walk']);
    expect(groupEvent(exceptionEvent([frame('lib', 'walk', false)])).hash).toBe(
      groupEvent(exceptionEvent(recursive)).hash,
    );
  });

  it('includes the cause chain, oldest first', () => {
    const event = {
      exception: {
        values: [
          { type: 'ECONNRESET', value: 'socket hang up', stacktrace: { frames: [frame('db', 'query', true)] } },
          { type: 'Error', value: 'could not save', stacktrace: { frames: [frame('orders', 'save', true)] } },
        ],
      },
    };
    expect(groupEvent(event).components).toEqual(['ECONNRESET', 'db:query', 'Error', 'orders:save']);
    expect(eventTitle(event)).toBe('Error: could not save');
    expect(eventCulprit(event)).toBe('orders in save');
  });

  it('replaces variable parts of values and messages', () => {
    expect(
      parameterize(
        'user 42 (bob@example.com) at 10.0.0.1:5432 got 3f2c1a9e-6a4b-4c1d-9a3e-0c1d2e3f4a5b on 2026-11-22T04:00:00Z from https://x.io/a?b=1 id deadbeef01',
      ),
    ).toBe('user <num> (<email>) at <ip> got <uuid> on <date> from <url> id <hex>');
  });

  it('groups message events by their template, or the parameterised message', () => {
    const templated = (n: number) => ({
      logentry: { message: 'payment %s declined', formatted: `payment ${n} declined`, params: [n] },
    });
    expect(groupEvent(templated(1)).hash).toBe(groupEvent(templated(2)).hash);
    expect(groupEvent(templated(1)).components).toEqual(['payment %s declined']);
    expect(groupEvent({ message: 'disk 91% full' }).components).toEqual(['disk <num>% full']);
    expect(groupEvent({ message: { formatted: 'disk 95% full' } }).hash).toBe(
      groupEvent({ message: 'disk 91% full' }).hash,
    );
    // captureMessage adds a synthetic, typeless exception: still a message event.
    const captured = {
      message: 'hello',
      exception: { values: [{ value: 'hello', mechanism: { type: 'generic', synthetic: true } }] },
    };
    expect(groupEvent(captured).method).toBe('message');
    expect(eventTitle(captured)).toBe('hello');
  });

  it('lets a custom fingerprint win, expanding {{ default }}', () => {
    const base = exceptionEvent([frame('orders', 'create', true)]);
    expect(groupEvent({ ...base, fingerprint: ['db-down'] }).components).toEqual(['db-down']);
    expect(groupEvent({ ...base, fingerprint: ['{{ default }}', 'eu'] }).components).toEqual([
      'TypeError',
      'orders:create',
      'eu',
    ]);
    expect(groupEvent({ ...base, fingerprint: ['db-down'] }).hash).not.toBe(groupEvent(base).hash);
  });

  it('titles events by exception type and first line, or message', () => {
    expect(eventTitle(exceptionEvent([], 'Error', 'first line\nsecond'))).toBe('Error: first line');
    expect(eventTitle({ message: 'multi\nline' })).toBe('multi');
    expect(eventTitle({})).toBe('<unlabeled event>');
  });
});
