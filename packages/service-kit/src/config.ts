/**
 * Environment configuration: each app declares every variable it reads once, in one schema, and
 * parses it once at boot. A bad value stops the process with one line that names the variable
 * and what is allowed. The same declarations feed the README tables and `.env.example`.
 */

export interface EnvVar<T> {
  readonly description: string;
  /** Human-readable description of the accepted values, used in errors and docs. */
  readonly allowed: string;
  /** The default as it would be written in the environment; undefined when there is none. */
  readonly fallback: string | undefined;
  readonly required: boolean;
  /** Parses a raw value (undefined or '' means unset); throws an Error whose message completes "NAME ...". */
  parse(raw: string | undefined): T;
}

export type EnvSchema = Record<string, EnvVar<unknown>>;
export type ConfigOf<S extends EnvSchema> = { readonly [K in keyof S]: S[K] extends EnvVar<infer T> ? T : never };

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

interface VarOptions<T> {
  description: string;
  default?: T;
}

function makeVar<T>(
  opts: VarOptions<T> & { required?: boolean },
  allowed: string,
  convert: (raw: string) => T,
  show: (value: T) => string = String,
): EnvVar<T> {
  const required = opts.required ?? false;
  return {
    description: opts.description,
    allowed,
    fallback: opts.default === undefined ? undefined : show(opts.default),
    required,
    parse(raw) {
      if (raw === undefined || raw === '') {
        if (opts.default !== undefined) return opts.default;
        if (required) throw new Error(`is required: ${allowed}`);
        return undefined as T;
      }
      return convert(raw.trim());
    },
  };
}

function invalid(allowed: string, raw: string): Error {
  const shown = raw.length > 60 ? `${raw.slice(0, 57)}...` : raw;
  return new Error(`must be ${allowed} (got "${shown}")`);
}

/** Variable helpers. Each returns an EnvVar whose parse either yields a typed value or throws. */
export const env = {
  string(opts: VarOptions<string> & { required?: boolean; pattern?: RegExp; hint?: string }) {
    const allowed = opts.hint ?? (opts.pattern ? `a string matching ${opts.pattern}` : 'a string');
    return makeVar<string>(opts, allowed, (raw) => {
      if (opts.pattern && !opts.pattern.test(raw)) throw invalid(allowed, raw);
      return raw;
    });
  },

  optionalString(opts: { description: string; pattern?: RegExp; hint?: string }): EnvVar<string | undefined> {
    return env.string(opts) as EnvVar<string | undefined>;
  },

  int(opts: VarOptions<number> & { min: number; max: number }) {
    const allowed = `a whole number from ${opts.min} to ${opts.max}`;
    return makeVar<number>(opts, allowed, (raw) => {
      const value = Number(raw);
      if (!/^-?\d+$/.test(raw) || value < opts.min || value > opts.max) throw invalid(allowed, raw);
      return value;
    });
  },

  port(opts: VarOptions<number>) {
    return env.int({ ...opts, min: 1, max: 65535 });
  },

  bool(opts: VarOptions<boolean>) {
    const allowed = 'true or false (also 1/0, yes/no)';
    return makeVar<boolean>(opts, allowed, (raw) => {
      const value = raw.toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(value)) return true;
      if (['false', '0', 'no', 'off'].includes(value)) return false;
      throw invalid(allowed, raw);
    });
  },

  oneOf<const T extends string>(values: readonly T[], opts: VarOptions<T>) {
    const allowed = `one of ${values.join(', ')}`;
    return makeVar<T>(opts, allowed, (raw) => {
      if (!(values as readonly string[]).includes(raw)) throw invalid(allowed, raw);
      return raw as T;
    });
  },

  /** A URL with one of the given protocols; unset means "feature off" unless a default is given. */
  url(opts: { description: string; protocols: readonly string[]; default?: string }): EnvVar<string | undefined> {
    const allowed = `a URL starting with ${opts.protocols.map((p) => `${p}//`).join(' or ')}`;
    return makeVar<string | undefined>(opts, allowed, (raw) => {
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        throw invalid(allowed, redactUrl(raw));
      }
      if (!opts.protocols.includes(parsed.protocol)) throw invalid(allowed, redactUrl(raw));
      return raw;
    });
  },

  /** A comma-separated list of non-empty tokens. */
  list(opts: VarOptions<string[]> & { itemPattern?: RegExp; hint?: string }) {
    const allowed = opts.hint ?? 'a comma-separated list';
    return makeVar<string[]>(
      opts,
      allowed,
      (raw) => {
        const items = raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (opts.itemPattern && items.some((item) => !opts.itemPattern?.test(item))) throw invalid(allowed, '…');
        return items;
      },
      (v) => v.join(','),
    );
  },
};

/** Hides the password of a connection URL so that it never reaches a log or an error message. */
export function redactUrl(raw: string): string {
  return raw.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1***@');
}

/** Parses every variable of the schema; collects all problems into one ConfigError. */
export function loadConfig<S extends EnvSchema>(schema: S, source: Record<string, string | undefined>): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, variable] of Object.entries(schema)) {
    try {
      out[name] = variable.parse(source[name]);
    } catch (err) {
      problems.push(`${name} ${(err as Error).message}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  return Object.freeze(out) as ConfigOf<S>;
}

/** Markdown table of the schema, for the README. */
export function configTable(schema: EnvSchema): string {
  const rows = Object.entries(schema).map(([name, v]) => {
    const fallback = v.fallback === undefined ? (v.required ? '(required)' : '(unset)') : `\`${v.fallback}\``;
    return `| \`${name}\` | ${fallback} | ${v.allowed} | ${v.description} |`;
  });
  return ['| variable | default | allowed | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** `.env.example` text for the schema: every variable, commented out at its default. */
export function envExample(schema: EnvSchema): string {
  return Object.entries(schema)
    .map(([name, v]) => `# ${v.description} (${v.allowed})\n# ${name}=${v.fallback ?? ''}`)
    .join('\n\n')
    .concat('\n');
}
