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
  const logo = image(224, 224, (x, y) => {
    const [disc, ring] = discAndRing(x, y, 112, 60, [80, 96]);
    const paper = [255, 255, 255];
    const mix = (ink: number[], share: number, under: number[]) =>
      ink.map((c, i) => c * share + under[i]! * (1 - share));
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
 * A shaded badge on a clear background, its edges soft in alpha (icons and logos exported with
 * transparency): the spline engine's alpha clusters, which the opaque samples leave cold. Without
 * it the first upload of a 512 px transparent emblem after readiness took 1.4-2.4x a warm one.
 */
function clearBadge(): RgbaImage {
  return image(176, 176, (x, y) => {
    const [disc, ring] = discAndRing(x, y, 88, 48, [60, 80]);
    const cover = (disc + ring) / 16;
    if (cover === 0) return [0, 0, 0, 0];
    const color = disc >= ring ? [210 - (y >> 1), 40 + (x >> 2), 50] : [250, 190, 20];
    return [...color, Math.round(cover * 255)];
  });
}

/**
 * Of pixel (x, y)'s 16 sample points (4 x 4), how many lie in the disc of radius `radius` about
 * (centre, centre), and how many in the ring between the radii `ring` about it.
 */
function discAndRing(x: number, y: number, centre: number, radius: number, ring: [number, number]): [number, number] {
  let inDisc = 0;
  let inRing = 0;
  for (let s = 0; s < 16; s++) {
    const d = Math.hypot(x + ((s & 3) + 0.5) / 4 - centre, y + ((s >> 2) + 0.5) / 4 - centre);
    if (d < radius) inDisc++;
    else if (d > ring[0] && d < ring[1]) inRing++;
  }
  return [inDisc, inRing];
}

/** Inside the triangle a-b-c (either winding). */
function inTriangle(x: number, y: number, [ax, ay, bx, by, cx, cy]: number[]): boolean {
  const side = (px: number, py: number, qx: number, qy: number) => (qx - px) * (y - py) - (qy - py) * (x - px);
  const d1 = side(ax!, ay!, bx!, by!);
  const d2 = side(bx!, by!, cx!, cy!);
  const d3 = side(cx!, cy!, ax!, ay!);
  return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0);
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
  return image(240, 240, (x, y) => {
    const cover = [0, 0, 0, 0];
    for (let s = 0; s < 16; s++) {
      const px = x + ((s & 3) + 0.5) / 4;
      const py = y + ((s >> 2) + 0.5) / 4;
      const d = Math.hypot(px - 84, py - 96);
      const wave = 196 + 10 * Math.sin(px / 30);
      let ink = 0;
      if (inTriangle(px, py, up) || inTriangle(px, py, down)) ink = 2;
      else if (d > 28 && d < 62) ink = 1;
      else if (py > wave && py < wave + 26 && px > 16 && px < 224) ink = 3;
      cover[ink]!++;
    }
    const color = [0, 1, 2].map((c) => inks.reduce((sum, ink, i) => sum + ink[c]! * cover[i]!, 0) / 16);
    return [...color.map(Math.round), 255];
  });
}

/**
 * Runs every engine path and every output writer (svgo, PDF, EPS) a few times on every thread,
 * so the first real request does not pay for loading the engine and compiling its hot code. Jobs
 * go out `threads` at a time, so each thread gets its share.
 */
export async function warmUp(tracer: Pick<Tracer, 'trace'>, threads: number, rounds = 5): Promise<void> {
  const jobs = warmUpSamples().flatMap((sample) => Array.from({ length: rounds }, () => sample));
  for (const { picture, output } of jobs) {
    await Promise.all(
      Array.from({ length: threads }, () => tracer.trace({ ...picture, data: picture.data.slice() }, {}, output)),
    );
  }
}
