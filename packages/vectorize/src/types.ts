/** Decoded raster input: `data` holds width × height × 4 bytes, RGBA, row by row, not premultiplied. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8ClampedArray | Uint8Array;
}

/** Fill colour of one output path; every channel 0–255, `a` is opacity (255 = opaque). */
export interface RgbaColor {
  r: number;
  g: number;
  b: number;
  a: number;
}

/**
 * One path command in absolute image coordinates (origin top left, y down), already rounded to
 * `path_precision`. Tuples keep the list light for large images and easy to map to PDF/EPS operators
 * (M → moveto, L → lineto, C → curveto, Z → closepath).
 */
export type PathCommand =
  | readonly ['M', number, number]
  | readonly ['L', number, number]
  | readonly ['C', number, number, number, number, number, number]
  | readonly ['Z'];

/** A filled shape: sub-paths follow the non-zero rule (outer outlines clockwise, holes anticlockwise). */
export interface VectorPath {
  color: RgbaColor;
  commands: PathCommand[];
}

export type EngineName = 'auto' | 'spline' | 'pixel-exact';
export type ResolvedEngine = Exclude<EngineName, 'auto'>;

export interface VectorizeResult {
  /** Complete SVG document with width, height and viewBox of the input. */
  svg: string;
  /** Paths in paint order (first is painted first, i.e. bottom-most). */
  paths: VectorPath[];
  width: number;
  height: number;
  engineUsed: ResolvedEngine;
}
