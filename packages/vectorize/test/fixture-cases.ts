import type { VectorizeOptions } from '../src/index.ts';

/** Fast fixtures and settings that the regression floors cover (the slow ones stay in the benchmark). */
export const FAST_CASES: { file: string; options: VectorizeOptions }[] = [
  { file: 'icon-flat-64.png', options: { engine: 'spline' } },
  { file: 'icon-transparent-128.png', options: { engine: 'spline' } },
  { file: 'icon-transparent-128.png', options: { engine: 'spline', preset: 'photo' } },
  { file: 'logo-aa-256.png', options: { engine: 'spline' } },
  { file: 'logo-aa-256.png', options: { engine: 'spline', preset: 'poster', hierarchical: 'cutout' } },
  { file: 'logo-aa-transparent-512.png', options: { engine: 'spline' } },
  { file: 'pixel-tiles-64.png', options: { engine: 'spline' } },
  { file: 'pixel-sprite-128.png', options: { engine: 'spline', preset: 'photo' } },
  { file: 'lineart-aa-400.png', options: { engine: 'spline', preset: 'bw' } },
  { file: 'lineart-aa-400.png', options: { engine: 'spline', path_simplify: 'polygon' } },
  { file: 'lineart-crisp-300.png', options: { engine: 'spline' } },
  { file: 'badge-translucent-160.png', options: { engine: 'spline' } },
  { file: 'checker-stripes-200.png', options: { engine: 'spline' } },
];
