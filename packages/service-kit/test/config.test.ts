import { describe, expect, it } from 'vitest';
import { ConfigError, configTable, env, envExample, loadConfig, redactUrl, serverEnv } from '../src/index.ts';

const schema = {
  ...serverEnv({ port: 8080, serviceName: 'demo' }),
  MODE: env.oneOf(['fast', 'safe'] as const, { description: 'mode', default: 'safe' }),
  FLAG: env.bool({ description: 'flag', default: false }),
  UPSTREAM: env.url({ description: 'upstream', protocols: ['http:', 'https:'] }),
  NAME: env.string({ description: 'name', required: true, pattern: /^[a-z]+$/, hint: 'lowercase letters' }),
  TAGS: env.list({ description: 'tags', default: ['a'] }),
};

describe('loadConfig', () => {
  it('applies defaults and parses typed values', () => {
    const config = loadConfig(schema, { NAME: 'demo', FLAG: 'yes', TAGS: 'x, y,,z', MODE: 'fast' });
    expect(config).toMatchObject({
      HOST: '0.0.0.0',
      PORT: 8080,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: 10_000,
      OTEL_SERVICE_NAME: 'demo',
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
      MODE: 'fast',
      FLAG: true,
      UPSTREAM: undefined,
      NAME: 'demo',
      TAGS: ['x', 'y', 'z'],
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig(schema, { NAME: 'demo', PORT: '' }).PORT).toBe(8080);
  });

  it.each([
    ['PORT', '0', 'PORT must be a whole number from 1 to 65535 (got "0")'],
    ['PORT', '80.5', 'PORT must be a whole number from 1 to 65535 (got "80.5")'],
    ['PORT', 'http', 'PORT must be a whole number from 1 to 65535 (got "http")'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
    ['FLAG', 'maybe', 'FLAG must be true or false (also 1/0, yes/no) (got "maybe")'],
    ['UPSTREAM', 'ftp://x', 'UPSTREAM must be a URL starting with http:// or https:// (got "ftp://x")'],
    ['UPSTREAM', 'not a url', 'UPSTREAM must be a URL starting with http:// or https:// (got "not a url")'],
    ['NAME', 'Demo1', 'NAME must be lowercase letters (got "Demo1")'],
  ])('rejects %s=%s with a message naming the variable', (name, value, message) => {
    const source = { NAME: 'demo', [name]: value };
    expect(() => loadConfig(schema, source)).toThrow(ConfigError);
    expect(() => loadConfig(schema, source)).toThrow(`Invalid configuration: ${message}`);
  });

  it('reports a missing required variable with what is allowed', () => {
    expect(() => loadConfig(schema, {})).toThrow('Invalid configuration: NAME is required: lowercase letters');
  });

  it('collects every problem into one line', () => {
    let error: Error | undefined;
    try {
      loadConfig(schema, { PORT: 'x', MODE: 'slow' });
    } catch (err) {
      error = err as Error;
    }
    expect(error?.message).not.toContain('\n');
    expect(error?.message).toMatch(/PORT must .*; MODE must be one of fast, safe .*; NAME is required/);
  });

  it('never shows a password from a URL', () => {
    expect(redactUrl('postgres://user:secret@db:5432/x')).toBe('postgres://user:***@db:5432/x');
    const urlSchema = { DB: env.url({ description: 'db', protocols: ['postgres:'] }) };
    expect(() => loadConfig(urlSchema, { DB: 'mysql://user:secret@db/x' })).toThrow(/user:\*\*\*@db/);
    expect(() => loadConfig(urlSchema, { DB: 'mysql://user:secret@db/x' })).not.toThrow(/secret/);
  });
});

describe('config documentation', () => {
  it('lists every variable with its default and allowed values', () => {
    const table = configTable(schema);
    for (const name of Object.keys(schema)) expect(table).toContain(`| \`${name}\` |`);
    expect(table).toContain('| `PORT` | `8080` | a whole number from 1 to 65535 | HTTP port |');
    expect(table).toContain('| `NAME` | (required) |');
    expect(table).toContain('| `UPSTREAM` | (unset) |');
    const example = envExample(schema);
    expect(example).toContain('# PORT=8080');
    expect(example).toContain('# TAGS=a');
  });
});
