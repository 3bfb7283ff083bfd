import type { RgbaImage } from '@trove/vectorize';
import type { TraceJob, Tracer } from '../tracer.ts';

function image(width: number, height: number, color: (x: number, y: number) => number[]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(color(x, y), (y * width + x) * 4);
  return { width, height, data };
}

export interface WarmUpSample {
  picture: RgbaImage;
  /** The writer run after the trace: svgo, or a PDF or EPS document. */
  output: Pick<TraceJob, 'document' | 'optimize'>;
}

const OPTIMIZE = { optimize: { preset: 'default', multipass: false, iterations: 1 } } as const;

/**
 * One picture per path `auto` can take, each with one of the writers: a gradient (spline, svgo),
 * four flat colours (pixel-exact, PDF), a diagram with anti-aliased 1 px lines and ink past 32
 * colours (fine-detail snapping, EPS), two anti-aliased logos, one shaded and one flat (spline,
 * the path most uploads take, svgo), and a badge on a clear background (spline with alpha, svgo).
 */
export function warmUpSamples(): WarmUpSample[] {
  // Shapes with soft edges over a gradient, big enough for clusters of every size the merge
  // hierarchy treats differently, so the spline engine's code is compiled along all its branches.
  const gradient = image(256, 256, (x, y) => {
    const ring = Math.abs(Math.hypot(x - 128, y - 128) - 72);
    const inside = Math.max(0, Math.min(1, 6 - ring / 2));
    const base = [x, y, (x + y) & 255];
    return [...base.map((c, i) => Math.round(c * (1 - inside) + [230, 40, 60][i]! * inside)), 255];
  });
  const flat = image(32, 32, (x, y) =>
    x < 16 ? (y < 16 ? [220, 30, 40, 255] : [255, 255, 255, 255]) : [30, 60, 200, 255],
  );
  const diagram = image(96, 64, (x, y) => {
    if (y === 63) return [200 + (x % 48), 255, 255, 255];
    if (y === 20 || x === 40) return [32, 33, 36, 255];
    if (y === 21 || x === 41) return [150, 151, 153, 255];
    if (x > 60 && y > 30 && y < 50) return [232, 240, 254, 255];
    return [255, 255, 255, 255];
  });
  // An anti-aliased logo (flat shapes, soft edges, long curved outlines): the spline engine's
  // large clusters, adjacency lists and curve fitting, which the gradient barely reaches. Measured
  // without it, the first upload of a 256 px logo after readiness took 2.7-4.9x a warm one.
  const paper = [255, 255, 255];
  const mix = (ink: number[], share: number, under: number[]) => ink.map((c, i) => c * share + under[i]! * (1 - share));
  const logoShapes = discAndRing(112, 60, [80, 96]);
  const logo = image(224, 224, (x, y) => {
    const [disc, ring] = logoShapes(x, y);
    // A shaded disc: past 32 colours, and not a diagram, so auto takes the spline engine after
    // the full fine-detail check (an unshaded one went pixel-exact).
    const color = mix([200 - (y >> 2), 30 + (y >> 3), 45], disc / 16, mix([20, 60, 140], ring / 16, paper));
    return [...color.map(Math.round), 255];
  });
  return [
    { picture: gradient, output: OPTIMIZE },
    { picture: flat, output: { document: 'pdf' } },
    { picture: diagram, output: { document: 'eps' } },
    { picture: logo, output: OPTIMIZE },
    { picture: flatLogo(), output: OPTIMIZE },
    { picture: clearBadge(), output: OPTIMIZE },
  ];
}

/**
 * A shaded badge on a clear background with a soft shadow (icons and logos exported with
 * transparency): the spline engine's alpha clusters, which the opaque samples leave cold. Without
 * it the first upload of a 512 px transparent emblem after readiness took 1.4-2.4x a warm one.
 * It is 512 px, a common icon size and larger than the other samples, so that the tracing
 * thread's reused arrays (vectorize's scratch pool) are that large before the first request: at
 * 176 px the first 512 px upload still took 1.3-1.6x a warm one, spent getting fresh memory. At
 * this size 1-px soft edges are merged away; the 24-px shadow keeps translucent shapes.
 */
function clearBadge(): RgbaImage {
  const [centre, outer] = [256, 233];
  const shapes = discAndRing(centre, 140, [175, outer]);
  const shadowColor = [60, 40, 20];
  return image(512, 512, (x, y) => {
    const [disc, ring] = shapes(x, y);
    const cover = (disc + ring) / 16;
    const color = disc >= ring ? [210 - (y >> 2), 40 + (x >> 3), 50] : [250, 190, 20];
    const fromEdge = Math.hypot(x + 0.5 - centre, y + 0.5 - centre) - outer;
    const shadow = 0.45 * Math.min(1, Math.max(0, 1 - fromEdge / 24)) * (1 - cover);
    const alpha = cover + shadow;
    if (alpha === 0) return [0, 0, 0, 0];
    const over = color.map((c, i) => (c * cover + shadowColor[i]! * shadow) / alpha);
    return [...over.map(Math.round), Math.round(alpha * 255)];
  });
}

/** Pixel (x, y)'s 16 sample points (4 x 4), counted by the ink `inkAt` gives each: counts[ink], of `inks`. */
function coverage(x: number, y: number, inks: number, inkAt: (px: number, py: number) => number): number[] {
  const counts = new Array<number>(inks).fill(0);
  for (let s = 0; s < 16; s++) counts[inkAt(x + ((s & 3) + 0.5) / 4, y + ((s >> 2) + 0.5) / 4)]!++;
  return counts;
}

/**
 * For a pixel (x, y): of its 16 sample points, how many lie in the disc of radius `radius` about
 * (centre, centre), and how many in the ring between the radii `ring` about it.
 */
function discAndRing(centre: number, radius: number, ring: [number, number]) {
  const inkAt = (px: number, py: number) => {
    const d = Math.hypot(px - centre, py - centre);
    return d < radius ? 1 : d > ring[0] && d < ring[1] ? 2 : 0;
  };
  return (x: number, y: number): [number, number] => {
    // Every sample point lies within 0.71 of the pixel's centre: a pixel a whole unit clear of
    // each edge is all one ink, which keeps drawing a large badge cheap.
    const d = Math.hypot(x + 0.5 - centre, y + 0.5 - centre);
    if (Math.abs(d - radius) >= 1 && Math.abs(d - ring[0]) >= 1 && Math.abs(d - ring[1]) >= 1) {
      const ink = inkAt(x + 0.5, y + 0.5);
      return [ink === 1 ? 16 : 0, ink === 2 ? 16 : 0];
    }
    const counts = coverage(x, y, 3, inkAt);
    return [counts[1]!, counts[2]!];
  };
}

/** Inside the triangle whose corners are (t[0], t[1]), (t[2], t[3]) and (t[4], t[5]), either winding. */
function inTriangle(x: number, y: number, t: number[]): boolean {
  let positive = 0;
  let negative = 0;
  for (let i = 0; i < 6; i += 2) {
    const j = (i + 2) % 6;
    const side = (t[j]! - t[i]!) * (y - t[i + 1]!) - (t[j + 1]! - t[i + 1]!) * (x - t[i]!);
    if (side > 0) positive++;
    else if (side < 0) negative++;
  }
  return positive === 0 || negative === 0;
}

/**
 * A logo of flat anti-aliased shapes: a ring, a six-pointed star (sharp corners) and a wavy band
 * (long smooth curves). The shaded disc above leaves the spline engine's corner and flat-cluster
 * code cold: without this one the first upload of such a logo after readiness took 2.2-2.4x a warm one.
 */
function flatLogo(): RgbaImage {
  const star = (turn: number) =>
    [0, 1, 2].flatMap((k) => {
      const angle = turn + (k * 2 * Math.PI) / 3;
      return [176 + 44 * Math.cos(angle), 70 + 44 * Math.sin(angle)];
    });
  const up = star(-Math.PI / 2);
  const down = star(Math.PI / 2);
  const inks = [
    [255, 255, 255],
    [226, 110, 35],
    [130, 90, 210],
    [40, 80, 130],
  ];
  const inkAt = (px: number, py: number) => {
    const d = Math.hypot(px - 84, py - 96);
    const wave = 196 + 10 * Math.sin(px / 30);
    if (inTriangle(px, py, up) || inTriangle(px, py, down)) return 2;
    if (d > 28 && d < 62) return 1;
    return py > wave && py < wave + 26 && px > 16 && px < 224 ? 3 : 0;
  };
  return image(240, 240, (x, y) => {
    const cover = coverage(x, y, inks.length, inkAt);
    const color = [0, 1, 2].map((c) => inks.reduce((sum, ink, i) => sum + ink[c]! * cover[i]!, 0) / 16);
    return [...color.map(Math.round), 255];
  });
}

/**
 * Runs every engine path and every output writer (svgo, PDF, EPS) a few times on every thread,
 * so the first real request does not pay for loading the engine and compiling its hot code. Jobs
 * go out `threads` at a time, so each thread gets its share.
 *
 * The rounds go through all the samples in turn rather than each sample `rounds` times before
 * the next: the first round gives V8 type feedback from every path, so what it compiles later
 * holds for all of them. Sample by sample, a branch first taken by a later sample threw away code
 * compiled on the earlier ones (the fine-detail colour count on the badge's alpha), and nothing
 * ran it again before the first upload, which then ran it uncompiled: a 256 px logo's first trace
 * took 9-14 ms against 6-9 ms for the next ones; in turn, 5.8-6.7 ms against 5.5-7.2 ms.
 */
export async function warmUp(tracer: Pick<Tracer, 'trace'>, threads: number, rounds = 5): Promise<void> {
  const samples = warmUpSamples();
  const jobs = Array.from({ length: rounds }, () => samples).flat();
  for (const { picture, output } of jobs) {
    await Promise.all(
      Array.from({ length: threads }, () => tracer.trace({ ...picture, data: picture.data.slice() }, {}, output)),
    );
  }
}
