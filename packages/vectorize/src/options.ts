import type { EngineName } from './types.ts';

export const ENGINES = ['auto', 'spline', 'pixel-exact'] as const;
export const PRESETS = ['bw', 'poster', 'photo'] as const;
export const PROFILES = ['icon', 'logo', 'photo', 'lineart'] as const;
export const COLOR_MODES = ['color', 'binary'] as const;
export const HIERARCHICAL_MODES = ['stacked', 'cutout'] as const;
export const PATH_SIMPLIFY_MODES = ['spline', 'polygon', 'none'] as const;

export type PresetName = (typeof PRESETS)[number];
export type ProfileName = (typeof PROFILES)[number];
export type ColorMode = (typeof COLOR_MODES)[number];
export type HierarchicalMode = (typeof HIERARCHICAL_MODES)[number];
export type PathSimplifyMode = (typeof PATH_SIMPLIFY_MODES)[number];

/** Every tracing parameter, resolved: what the engines read. */
export interface TraceParameters {
  color_mode: ColorMode;
  hierarchical: HierarchicalMode;
  path_simplify: PathSimplifyMode;
  color_precision: number;
  filter_speckle: number;
  layer_difference: number;
  corner_threshold: number;
  length_threshold: number;
  max_iterations: number;
  splice_threshold: number;
  path_precision: number;
}

/** What a caller may pass; field names match the HTTP form fields of the spec. */
export interface VectorizeOptions extends Partial<TraceParameters> {
  engine?: EngineName;
  preset?: PresetName;
  profile?: ProfileName;
}

export interface ResolvedOptions extends TraceParameters {
  engine: EngineName;
}

interface NumericRange {
  min: number;
  max: number;
  integer: boolean;
}

/** Accepted ranges. color_precision takes the spec's 1–32, values above 8 act as 8 (8 bits per channel exist). */
export const NUMERIC_RANGES: Readonly<
  Record<keyof Omit<TraceParameters, 'color_mode' | 'hierarchical' | 'path_simplify'>, NumericRange>
> = {
  color_precision: { min: 1, max: 32, integer: true },
  filter_speckle: { min: 0, max: 128, integer: true },
  layer_difference: { min: 0, max: 255, integer: true },
  corner_threshold: { min: 0, max: 180, integer: true },
  length_threshold: { min: 3.5, max: 10, integer: false },
  max_iterations: { min: 1, max: 50, integer: true },
  splice_threshold: { min: 0, max: 100, integer: true },
  path_precision: { min: 0, max: 8, integer: true },
};

const ENUM_FIELDS = {
  engine: ENGINES,
  preset: PRESETS,
  profile: PROFILES,
  color_mode: COLOR_MODES,
  hierarchical: HIERARCHICAL_MODES,
  path_simplify: PATH_SIMPLIFY_MODES,
} as const;

/** vtracer's defaults (its CLI and library agree), so the same call gives comparable results. */
export const DEFAULT_PARAMETERS: Readonly<TraceParameters> = {
  color_mode: 'color',
  hierarchical: 'stacked',
  path_simplify: 'spline',
  color_precision: 6,
  filter_speckle: 4,
  layer_difference: 16,
  corner_threshold: 60,
  length_threshold: 4,
  max_iterations: 10,
  splice_threshold: 45,
  path_precision: 2,
};

/** vtracer's presets. */
export const PRESET_PARAMETERS: Readonly<Record<PresetName, Partial<TraceParameters>>> = {
  bw: { color_mode: 'binary' },
  poster: { color_mode: 'color', color_precision: 8 },
  photo: { color_mode: 'color', color_precision: 8, filter_speckle: 10, layer_difference: 48, corner_threshold: 180 },
};

/**
 * Our profiles, chosen by measurement on the benchmark set (see README): each trades detail
 * against size for one kind of picture.
 */
export const PROFILE_PARAMETERS: Readonly<Record<ProfileName, Partial<ResolvedOptions>>> = {
  // Small flat or anti-aliased icons: exact copy when flat (auto), otherwise fine colours and specks kept.
  icon: { engine: 'auto', color_mode: 'color', color_precision: 7, filter_speckle: 2, layer_difference: 16 },
  // Logos: fewer, cleaner layers; about a quarter fewer bytes than the defaults for 1.1 dB.
  logo: { engine: 'spline', color_mode: 'color', color_precision: 7, filter_speckle: 4, layer_difference: 24 },
  // Photos: bigger specks and coarser layers; 44 % of the default's bytes, faster, 1.7 dB below it.
  photo: { engine: 'spline', color_mode: 'color', color_precision: 6, filter_speckle: 8, layer_difference: 24 },
  // Line art: black ink traced in binary mode, small dots kept, tighter curves.
  lineart: { engine: 'spline', color_mode: 'binary', filter_speckle: 2, length_threshold: 3.5 },
};

/** Thrown for an option outside its allowed values; `field` and `allowed` let an API answer 400. */
export class VectorizeOptionError extends Error {
  readonly field: string;
  readonly allowed: string;
  constructor(field: string, allowed: string, received: unknown) {
    super(`${field} must be ${allowed} (got ${describe(received)})`);
    this.name = 'VectorizeOptionError';
    this.field = field;
    this.allowed = allowed;
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

function rangeText(range: NumericRange): string {
  return `${range.integer ? 'an integer' : 'a number'} from ${range.min} to ${range.max}`;
}

function parseNumber(field: string, raw: unknown, range: NumericRange): number {
  let value: number = Number.NaN;
  if (typeof raw === 'number') value = raw;
  // Form fields arrive as text; accept a plain decimal numeral, nothing looser ("", "1e3", "12px").
  else if (typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw)) value = Number(raw);
  if (
    !Number.isFinite(value) ||
    value < range.min ||
    value > range.max ||
    (range.integer && !Number.isInteger(value))
  ) {
    throw new VectorizeOptionError(field, rangeText(range), raw);
  }
  return value;
}

function parseEnum<T extends string>(field: string, raw: unknown, allowed: readonly T[]): T {
  const value = typeof raw === 'string' ? raw.trim() : raw;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new VectorizeOptionError(field, `one of ${allowed.join(', ')}`, raw);
  }
  return value as T;
}

/**
 * Checks a plain object (numbers or numeric strings, as from a form) and returns typed options.
 * Fields left out, `undefined`, `null` or empty strings are treated as not set; keys that are not
 * options (file, format, ...) are ignored so an HTTP layer can pass its whole form.
 */
export function validateOptions(raw: Record<string, unknown>): VectorizeOptions {
  const options: Record<string, unknown> = {};
  for (const [field, allowed] of Object.entries(ENUM_FIELDS)) {
    const value = raw[field];
    if (value === undefined || value === null || value === '') continue;
    options[field] = parseEnum(field, value, allowed);
  }
  for (const [field, range] of Object.entries(NUMERIC_RANGES)) {
    const value = raw[field];
    if (value === undefined || value === null || value === '') continue;
    options[field] = parseNumber(field, value, range);
  }
  return options as VectorizeOptions;
}

/** Defaults, then the preset, then the profile, then the fields the caller set: explicit fields win. */
export function resolveOptions(options: VectorizeOptions = {}): ResolvedOptions {
  const checked = validateOptions(options as Record<string, unknown>);
  const resolved: ResolvedOptions = { engine: 'auto', ...DEFAULT_PARAMETERS };
  if (checked.preset) Object.assign(resolved, PRESET_PARAMETERS[checked.preset]);
  if (checked.profile) Object.assign(resolved, PROFILE_PARAMETERS[checked.profile]);
  for (const [key, value] of Object.entries(checked)) {
    if (key !== 'preset' && key !== 'profile') (resolved as unknown as Record<string, unknown>)[key] = value;
  }
  return resolved;
}
