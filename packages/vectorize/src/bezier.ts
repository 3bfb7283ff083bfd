/**
 * Least-squares cubic Bézier through a run of points with fixed end tangents, in the manner of
 * Schneider's "An Algorithm for Automatically Fitting Digitized Curves" (Graphics Gems, 1990):
 * chord-length parameters, solve for the two handle lengths, refine the parameters by Newton steps.
 */

/**
 * Result of the last `fitCubic` (one buffer, reused: fitting runs once per curve of every outline):
 * control points x0, y0, x1, y1, x2, y2, x3, y3, then the largest squared distance from a point to
 * the curve at its parameter, then the index (within the run) of the point with that distance.
 */
export const fitted = new Float64Array(10);
export const FIT_ERROR = 8;
export const FIT_WORST = 9;

let params = new Float64Array(256);

/**
 * Fits the run of points from `start` to `end` inclusive in xs/ys; the result is in `fitted`.
 * (tx1, ty1) is the unit tangent leaving the first point, (tx2, ty2) the unit tangent pointing back
 * from the last point.
 */
export function fitCubic(
  xs: Float64Array,
  ys: Float64Array,
  start: number,
  end: number,
  tx1: number,
  ty1: number,
  tx2: number,
  ty2: number,
  newtonRounds: number,
): void {
  const count = end - start + 1;
  if (params.length < count) params = new Float64Array(Math.max(count, 2 * params.length));
  const u = params;
  u[0] = 0;
  for (let i = 1; i < count; i++) {
    u[i] = u[i - 1]! + Math.hypot(xs[start + i]! - xs[start + i - 1]!, ys[start + i]! - ys[start + i - 1]!);
  }
  const total = u[count - 1]! || 1;
  for (let i = 1; i < count; i++) u[i]! /= total;
  const c = fitted;
  solveHandles(xs, ys, start, count, u, tx1, ty1, tx2, ty2, c);
  for (let round = 0; round < newtonRounds; round++) {
    reparameterize(xs, ys, start, count, u, c);
    solveHandles(xs, ys, start, count, u, tx1, ty1, tx2, ty2, c);
  }
  let maxErrorSquared = 0;
  let worstIndex = Math.floor(count / 2);
  for (let i = 1; i < count - 1; i++) {
    const t = u[i]!;
    const ex = evaluate(c[0]!, c[2]!, c[4]!, c[6]!, t) - xs[start + i]!;
    const ey = evaluate(c[1]!, c[3]!, c[5]!, c[7]!, t) - ys[start + i]!;
    const error = ex * ex + ey * ey;
    if (error > maxErrorSquared) {
      maxErrorSquared = error;
      worstIndex = i;
    }
  }
  c[FIT_ERROR] = maxErrorSquared;
  c[FIT_WORST] = worstIndex;
}

function evaluate(p0: number, p1: number, p2: number, p3: number, u: number): number {
  const v = 1 - u;
  return v * v * v * p0 + 3 * v * v * u * p1 + 3 * v * u * u * p2 + u * u * u * p3;
}

/** Least-squares handle lengths along the fixed tangents; writes the curve into `c`. */
function solveHandles(
  xs: Float64Array,
  ys: Float64Array,
  start: number,
  count: number,
  params: Float64Array,
  tx1: number,
  ty1: number,
  tx2: number,
  ty2: number,
  c: Float64Array,
): void {
  const x0 = xs[start]!;
  const y0 = ys[start]!;
  const x3 = xs[start + count - 1]!;
  const y3 = ys[start + count - 1]!;
  let c00 = 0;
  let c01 = 0;
  let c11 = 0;
  let r0 = 0;
  let r1 = 0;
  for (let i = 0; i < count; i++) {
    const u = params[i]!;
    const v = 1 - u;
    const b0 = v * v * v;
    const b1 = 3 * v * v * u;
    const b2 = 3 * v * u * u;
    const b3 = u * u * u;
    const a1x = tx1 * b1;
    const a1y = ty1 * b1;
    const a2x = tx2 * b2;
    const a2y = ty2 * b2;
    c00 += a1x * a1x + a1y * a1y;
    c01 += a1x * a2x + a1y * a2y;
    c11 += a2x * a2x + a2y * a2y;
    const restX = xs[start + i]! - (x0 * (b0 + b1) + x3 * (b2 + b3));
    const restY = ys[start + i]! - (y0 * (b0 + b1) + y3 * (b2 + b3));
    r0 += a1x * restX + a1y * restY;
    r1 += a2x * restX + a2y * restY;
  }
  const chord = Math.hypot(x3 - x0, y3 - y0);
  const det = c00 * c11 - c01 * c01;
  let alpha1 = Math.abs(det) > 1e-12 ? (r0 * c11 - r1 * c01) / det : 0;
  let alpha2 = Math.abs(det) > 1e-12 ? (c00 * r1 - c01 * r0) / det : 0;
  // Degenerate or wild solutions (handles backwards or longer than the chord would loop the curve):
  // fall back to the classic third-of-chord handles.
  const floor = chord * 1e-3;
  if (!(alpha1 > floor && alpha2 > floor && alpha1 <= chord && alpha2 <= chord)) {
    alpha1 = chord / 3;
    alpha2 = chord / 3;
  }
  c[0] = x0;
  c[1] = y0;
  c[2] = x0 + tx1 * alpha1;
  c[3] = y0 + ty1 * alpha1;
  c[4] = x3 + tx2 * alpha2;
  c[5] = y3 + ty2 * alpha2;
  c[6] = x3;
  c[7] = y3;
}

/** One Newton step per point towards the parameter of its nearest point on the curve `c`. */
function reparameterize(
  xs: Float64Array,
  ys: Float64Array,
  start: number,
  count: number,
  params: Float64Array,
  c: Float64Array,
): void {
  const x0 = c[0]!;
  const y0 = c[1]!;
  const x1 = c[2]!;
  const y1 = c[3]!;
  const x2 = c[4]!;
  const y2 = c[5]!;
  const x3 = c[6]!;
  const y3 = c[7]!;
  for (let i = 1; i < count - 1; i++) {
    const u = params[i]!;
    const v = 1 - u;
    const qx = evaluate(x0, x1, x2, x3, u) - xs[start + i]!;
    const qy = evaluate(y0, y1, y2, y3, u) - ys[start + i]!;
    // First and second derivatives of the cubic at u.
    const d1x = 3 * (v * v * (x1 - x0) + 2 * v * u * (x2 - x1) + u * u * (x3 - x2));
    const d1y = 3 * (v * v * (y1 - y0) + 2 * v * u * (y2 - y1) + u * u * (y3 - y2));
    const d2x = 6 * (v * (x2 - 2 * x1 + x0) + u * (x3 - 2 * x2 + x1));
    const d2y = 6 * (v * (y2 - 2 * y1 + y0) + u * (y3 - 2 * y2 + y1));
    const numerator = qx * d1x + qy * d1y;
    const denominator = d1x * d1x + d1y * d1y + qx * d2x + qy * d2y;
    if (denominator !== 0) {
      const next = u - numerator / denominator;
      params[i] = next < 0 ? 0 : next > 1 ? 1 : next;
    }
  }
}
