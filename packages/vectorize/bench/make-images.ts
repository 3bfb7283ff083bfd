/**
 * Draws the benchmark and regression image set deterministically (SVG we write, rendered by sharp,
 * plus seeded noise and hand-built pixel art) into ../fixtures. Run: npx tsx bench/make-images.ts
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** Small seeded generator (mulberry32) so every run draws the same pixels. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Raw {
  width: number;
  height: number;
  data: Buffer;
}

async function render(svg: string): Promise<Raw> {
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

function hexToRgb(hex: string): [number, number, number] {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** Makes a rendering truly flat: every pixel snaps to the nearest palette colour, alpha to 0 or 255. */
function snapToPalette(image: Raw, palette: string[]): Raw {
  const colors = palette.map(hexToRgb);
  const d = image.data;
  for (let o = 0; o < d.length; o += 4) {
    if (d[o + 3]! < 128) {
      d[o] = d[o + 1] = d[o + 2] = d[o + 3] = 0;
      continue;
    }
    let best = colors[0]!;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const c of colors) {
      const distance = (c[0] - d[o]!) ** 2 + (c[1] - d[o + 1]!) ** 2 + (c[2] - d[o + 2]!) ** 2;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = c;
      }
    }
    d[o] = best[0];
    d[o + 1] = best[1];
    d[o + 2] = best[2];
    d[o + 3] = 255;
  }
  return image;
}

function addNoise(image: Raw, amount: number, seed: number): Raw {
  const next = random(seed);
  const d = image.data;
  for (let o = 0; o < d.length; o += 4) {
    // Sum of uniforms: roughly Gaussian grain, shared a little between channels like sensor noise.
    const shared = (next() + next() + next() - 1.5) * amount;
    for (let c = 0; c < 3; c++) {
      const own = (next() - 0.5) * amount * 0.6;
      d[o + c] = Math.max(0, Math.min(255, Math.round(d[o + c]! + shared + own)));
    }
  }
  return image;
}

const svg = (w: number, h: number, body: string, crisp = false): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"${crisp ? ' shape-rendering="crispEdges"' : ''}>${body}</svg>`;

function star(cx: number, cy: number, outer: number, inner: number, points: number): string {
  const coords: string[] = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = (Math.PI * i) / points - Math.PI / 2;
    coords.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return coords.join(' ');
}

async function iconFlat64(): Promise<Raw> {
  const palette = ['#ffffff', '#2b6cb0', '#f6e05e', '#e53e3e'];
  const body = `<rect width="64" height="64" fill="#ffffff"/><rect x="6" y="6" width="52" height="52" rx="10" fill="#2b6cb0"/>
    <polygon points="${star(32, 33, 20, 9, 5)}" fill="#f6e05e"/><circle cx="32" cy="34" r="5" fill="#e53e3e"/>`;
  return snapToPalette(await render(svg(64, 64, body, true)), palette);
}

async function iconTransparent128(): Promise<Raw> {
  const palette = ['#38a169', '#ffffff', '#1a202c'];
  const body = `<circle cx="64" cy="64" r="56" fill="#38a169"/><circle cx="64" cy="64" r="30" fill="#ffffff"/>
    <rect x="56" y="34" width="16" height="60" fill="#1a202c"/><circle cx="64" cy="64" r="14" fill="none" stroke="#38a169" stroke-width="0"/>`;
  return snapToPalette(await render(svg(128, 128, body, true)), palette);
}

async function logoAntialiased256(): Promise<Raw> {
  const body = `<rect width="256" height="256" fill="#ffffff"/>
    <circle cx="96" cy="110" r="70" fill="#dd6b20"/><circle cx="96" cy="110" r="38" fill="#ffffff"/>
    <path d="M20 210 C 80 160, 140 250, 236 190 L 236 226 C 140 280, 80 200, 20 240 Z" fill="#2c5282"/>
    <polygon points="${star(190, 80, 50, 22, 6)}" fill="#805ad5"/>`;
  return render(svg(256, 256, body));
}

async function logoTransparent512(): Promise<Raw> {
  const body = `<g transform="rotate(-12 256 256)"><rect x="70" y="150" width="372" height="212" rx="60" fill="#c53030"/>
    <ellipse cx="256" cy="256" rx="140" ry="70" fill="#fefcbf"/><ellipse cx="256" cy="256" rx="70" ry="34" fill="#c53030"/></g>
    <circle cx="430" cy="90" r="46" fill="#2b6cb0"/><path d="M40 470 Q 256 380 472 470" stroke="#2b6cb0" stroke-width="18" fill="none"/>`;
  return render(svg(512, 512, body));
}

/** A 16 × 16 sprite drawn from a character map, scaled ×8 with hard edges. */
function pixelArtSprite128(): Raw {
  const rows = [
    '................',
    '.....kkkkkk.....',
    '...kkrrrrrrkk...',
    '..krrrrrrrrrrk..',
    '.krrwwrrrrwwrrk.',
    '.krwwkrrrrwwkrk.',
    'krrwwkrrrrwwkrrk',
    'krrrrrrrrrrrrrrk',
    'krrrrrrrrrrrrrrk',
    'krryrrrrrrrryrrk',
    '.krryyyyyyyyrrk.',
    '.krrrryyyyrrrrk.',
    '..krrrrrrrrrrk..',
    '...kkrrrrrrkk...',
    '.....kkkkkk.....',
    '................',
  ];
  const colors: Record<string, number[]> = {
    '.': [0, 0, 0, 0],
    k: [26, 32, 44, 255],
    r: [229, 62, 62, 255],
    w: [255, 255, 255, 255],
    y: [246, 224, 94, 255],
  };
  const scale = 8;
  const size = 16 * scale;
  const data = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const c = colors[rows[(y / scale) | 0]![(x / scale) | 0]!]!;
      data.set(c, (y * size + x) * 4);
    }
  }
  return { width: size, height: size, data };
}

/** 64 × 64 tile map: random terrain from a small palette, one pixel per tile. */
function pixelArtTiles64(): Raw {
  const next = random(7);
  const palette = [
    [72, 187, 120],
    [56, 161, 105],
    [66, 153, 225],
    [236, 201, 75],
    [160, 174, 192],
    [113, 128, 150],
  ];
  const size = 64;
  const data = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // Smooth-ish terrain: sine field plus a little randomness, bucketed into the palette.
      const field = Math.sin(x / 7) + Math.cos(y / 5) + Math.sin((x + y) / 11) + next() * 0.6;
      const index = Math.max(0, Math.min(palette.length - 1, Math.floor((field + 3) * 1.1)));
      data.set([...palette[index]!, 255], (y * size + x) * 4);
    }
  }
  return { width: size, height: size, data };
}

async function illustrationGradients600(): Promise<Raw> {
  const body = `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2a4365"/><stop offset="1" stop-color="#fbd38d"/></linearGradient>
    <radialGradient id="sun"><stop offset="0" stop-color="#fffff0"/><stop offset="0.6" stop-color="#f6ad55"/><stop offset="1" stop-color="#f6ad55" stop-opacity="0"/></radialGradient>
    <linearGradient id="hill" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#276749"/><stop offset="1" stop-color="#1c4532"/></linearGradient></defs>
    <rect width="600" height="400" fill="url(#sky)"/><circle cx="420" cy="230" r="120" fill="url(#sun)"/>
    <path d="M0 300 C 120 220, 240 260, 330 300 S 520 250, 600 280 L600 400 L0 400Z" fill="url(#hill)"/>
    <path d="M0 350 C 150 320, 300 380, 600 340 L600 400 L0 400Z" fill="#22543d"/>
    <g fill="#1a202c"><rect x="100" y="250" width="14" height="70"/><circle cx="107" cy="240" r="30" fill="#2f855a"/></g>`;
  return render(svg(600, 400, body));
}

async function photoLike(width: number, height: number, seed: number): Promise<Raw> {
  const next = random(seed);
  let blobs = '';
  for (let i = 0; i < 14; i++) {
    const hue = Math.floor(next() * 360);
    blobs += `<ellipse cx="${(next() * width).toFixed(1)}" cy="${(next() * height).toFixed(1)}" rx="${(20 + next() * width * 0.2).toFixed(1)}" ry="${(20 + next() * height * 0.2).toFixed(1)}" fill="hsl(${hue},${40 + Math.floor(next() * 40)}%,${30 + Math.floor(next() * 40)}%)" opacity="${(0.5 + next() * 0.5).toFixed(2)}"/>`;
  }
  const body = `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#4a5568"/><stop offset="0.5" stop-color="#a0aec0"/><stop offset="1" stop-color="#744210"/></linearGradient>
    <filter id="soft"><feGaussianBlur stdDeviation="${(width / 160).toFixed(1)}"/></filter></defs>
    <rect width="${width}" height="${height}" fill="url(#g)"/><g filter="url(#soft)">${blobs}</g>`;
  return addNoise(await render(svg(width, height, body)), 18, seed + 1);
}

async function lineArt400(): Promise<Raw> {
  const body = `<rect width="400" height="400" fill="#ffffff"/><g fill="none" stroke="#111111" stroke-linecap="round">
    <circle cx="200" cy="200" r="150" stroke-width="6"/><circle cx="150" cy="160" r="24" stroke-width="4"/><circle cx="250" cy="160" r="24" stroke-width="4"/>
    <path d="M120 250 Q 200 320 280 250" stroke-width="5"/><path d="M60 60 L 340 340 M 340 60 L 60 340" stroke-width="1.5"/>
    <path d="M30 380 C 100 300, 300 460, 370 380" stroke-width="3"/></g>`;
  return render(svg(400, 400, body));
}

async function lineArtCrisp300(): Promise<Raw> {
  let lines = '';
  for (let i = 0; i < 12; i++)
    lines += `<rect x="${20 + i * 22}" y="20" width="${1 + (i % 3)}" height="260" fill="#000000"/>`;
  const body = `<rect width="300" height="300" fill="#ffffff"/>${lines}<rect x="20" y="140" width="260" height="2" fill="#000000"/>
    <circle cx="150" cy="150" r="60" fill="none" stroke="#000000" stroke-width="3"/>`;
  return snapToPalette(await render(svg(300, 300, body, true)), ['#ffffff', '#000000']);
}

async function posterFlat2000(): Promise<Raw> {
  const palette = ['#f7fafc', '#2d3748', '#e53e3e', '#3182ce', '#ecc94b'];
  const body = `<rect width="2000" height="2000" fill="#f7fafc"/><rect x="100" y="100" width="1800" height="600" fill="#2d3748"/>
    <circle cx="1000" cy="1250" r="520" fill="#e53e3e"/><circle cx="1000" cy="1250" r="300" fill="#f7fafc"/>
    <polygon points="${star(1000, 1250, 260, 110, 5)}" fill="#3182ce"/><rect x="100" y="1850" width="1800" height="60" fill="#ecc94b"/>
    <polygon points="200,700 600,300 1000,700" fill="#ecc94b"/>`;
  return snapToPalette(await render(svg(2000, 2000, body, true)), palette);
}

function checkerStripes200(): Raw {
  const size = 200;
  const data = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const checker = ((x >> 4) + (y >> 4)) % 2 === 0;
      const stripe = y >= 120 && ((x >> 3) & 1) === 0;
      const c = stripe ? [49, 130, 206] : checker ? [26, 32, 44] : [247, 250, 252];
      data.set([...c, 255], (y * size + x) * 4);
    }
  }
  return { width: size, height: size, data };
}

async function badgeTranslucent160(): Promise<Raw> {
  const body = `<circle cx="80" cy="80" r="72" fill="#553c9a"/><circle cx="80" cy="80" r="50" fill="#faf089"/>
    <rect x="10" y="60" width="140" height="40" rx="8" fill="#ffffff" fill-opacity="0.6"/>`;
  return render(svg(160, 160, body));
}

async function mapFlat1000(): Promise<Raw> {
  const next = random(11);
  const palette = ['#e2e8f0', '#9ae6b4', '#fbd38d', '#90cdf4', '#feb2b2', '#d6bcfa', '#4a5568'];
  let regions = '';
  for (let i = 0; i < 24; i++) {
    const cx = next() * 1000;
    const cy = next() * 700;
    const pts: string[] = [];
    for (let k = 0; k < 7; k++) {
      const a = (k / 7) * Math.PI * 2;
      const r = 40 + next() * 110;
      pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
    }
    regions += `<polygon points="${pts.join(' ')}" fill="${palette[1 + (i % 5)]}" stroke="#4a5568" stroke-width="3"/>`;
  }
  return snapToPalette(
    await render(svg(1000, 700, `<rect width="1000" height="700" fill="#e2e8f0"/>${regions}`, true)),
    palette,
  );
}

/** name → drawing; `flat` marks images made only of exact flat colours (pixel-exact must be lossless). */
export const IMAGE_SET: { name: string; flat: boolean; draw: () => Raw | Promise<Raw> }[] = [
  { name: 'icon-flat-64', flat: true, draw: iconFlat64 },
  { name: 'icon-transparent-128', flat: true, draw: iconTransparent128 },
  { name: 'logo-aa-256', flat: false, draw: logoAntialiased256 },
  { name: 'logo-aa-transparent-512', flat: false, draw: logoTransparent512 },
  { name: 'pixel-sprite-128', flat: true, draw: pixelArtSprite128 },
  { name: 'pixel-tiles-64', flat: true, draw: pixelArtTiles64 },
  { name: 'illustration-gradients-600x400', flat: false, draw: illustrationGradients600 },
  { name: 'photo-like-480x320', flat: false, draw: () => photoLike(480, 320, 21) },
  { name: 'photo-like-800x600', flat: false, draw: () => photoLike(800, 600, 42) },
  { name: 'lineart-aa-400', flat: false, draw: lineArt400 },
  { name: 'lineart-crisp-300', flat: true, draw: lineArtCrisp300 },
  { name: 'poster-flat-2000', flat: true, draw: posterFlat2000 },
  { name: 'checker-stripes-200', flat: true, draw: checkerStripes200 },
  { name: 'badge-translucent-160', flat: false, draw: badgeTranslucent160 },
  { name: 'map-flat-1000x700', flat: true, draw: mapFlat1000 },
];

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await mkdir(FIXTURES, { recursive: true });
  for (const entry of IMAGE_SET) {
    const image = await entry.draw();
    const png = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
      .png({ compressionLevel: 9, adaptiveFiltering: true })
      .toBuffer();
    await writeFile(join(FIXTURES, `${entry.name}.png`), png);
    console.log(`${entry.name}.png ${image.width}x${image.height} ${png.length} bytes`);
  }
  await writeFile(
    join(FIXTURES, 'manifest.json'),
    `${JSON.stringify(
      IMAGE_SET.map((e) => ({ file: `${e.name}.png`, flat: e.flat })),
      null,
      2,
    )}\n`,
  );
}
