import type { WorkerPool } from '@trove/tracer';

/** A small picture with a gradient, so the spline engine's every stage runs once. */
function sample(): { width: number; height: number; data: Uint8Array } {
  const width = 48;
  const height = 48;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([x * 5, y * 5, (x + y) * 2, 255], (y * width + x) * 4);
  }
  return { width, height, data };
}

/**
 * One trace per thread, all at once so each thread gets one: loads the engine in every thread and
 * compiles its hot code before the first real job pays for it.
 */
export async function warmUp(pool: WorkerPool): Promise<void> {
  await Promise.all(
    Array.from({ length: pool.size }, () => pool.trace(sample(), { engine: 'spline' }, { document: 'pdf' })),
  );
}
