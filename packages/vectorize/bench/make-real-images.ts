/**
 * Renders the real-picture benchmark set into fixtures/real/ from material the project may ship:
 * photos from Debian's python3-skimage (CC0 / public domain) and python-matplotlib-data (public
 * domain), diagrams drawn by graphviz from bench/real-sources/*.dot, UI screenshots of
 * bench/real-sources/*.html taken by headless chromium, and Tango icons (public domain, Debian's
 * tango-icon-theme) rasterised with resvg from 16 px to 2000 px.
 * Needs: apt-get install -y graphviz chromium (packages are fetched with apt-get download).
 * Run: npm run images:real -w packages/vectorize
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import sharp, { type Sharp } from 'sharp';
import { chromiumScreenshotArgs } from './chromium.ts';

const HERE = import.meta.dirname;
const SOURCES = join(HERE, 'real-sources');
const OUT = join(HERE, '..', 'fixtures', 'real');

export type Kind = 'photo' | 'diagram' | 'screenshot' | 'icon' | 'logo';
interface Entry {
  file: string;
  kind: Kind;
  source: string;
  licence: string;
}

const work = mkdtempSync(join(tmpdir(), 'vectorize-real-'));
const run = (cmd: string, args: string[], cwd = work): Buffer => execFileSync(cmd, args, { cwd, stdio: 'pipe' });

// Debian packages, unpacked (not installed): apt-get download needs no root.
const PACKAGES = ['python3-skimage', 'python-matplotlib-data', 'tango-icon-theme'];
run('apt-get', ['download', ...PACKAGES]);
for (const deb of readdirSync(work).filter((f) => f.endsWith('.deb'))) run('dpkg-deb', ['-x', deb, 'root']);
const root = join(work, 'root');
const SKIMAGE = join(root, 'usr/lib/python3/dist-packages/skimage/data');
const MPL = join(root, 'usr/share/matplotlib/mpl-data/sample_data');
const TANGO = join(root, 'usr/share/icons/Tango/scalable');

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const entries: Entry[] = [];
const png = (image: Sharp, file: string): Promise<unknown> =>
  image.png({ compressionLevel: 9 }).toFile(join(OUT, file));

const PHOTOS: [string, string, number, string][] = [
  [join(SKIMAGE, 'coffee.png'), 'photo-coffee-480x320.png', 480, 'CC0 (Rachel Michetti), scikit-image data'],
  [join(SKIMAGE, 'astronaut.png'), 'photo-astronaut-384.png', 384, 'public domain (NASA), scikit-image data'],
  [join(SKIMAGE, 'rocket.jpg'), 'photo-rocket-480x320.png', 480, 'public domain (SpaceX), scikit-image data'],
  [join(MPL, 'grace_hopper.jpg'), 'photo-hopper-256x300.png', 256, 'public domain (US Navy), matplotlib sample data'],
];
for (const [from, file, width, licence] of PHOTOS) {
  await png(sharp(from).resize({ width }).removeAlpha(), file);
  entries.push({ file, kind: 'photo', source: from.slice(root.length), licence });
}

// Graphviz at 96 dpi: 1-px borders, 8-11 pt labels.
for (const name of ['pipeline', 'records', 'states']) {
  const file = `diagram-${name}.png`;
  run('dot', ['-Tpng', '-Gdpi=96', join(SOURCES, `${name}.dot`), '-o', join(work, file)]);
  await png(sharp(join(work, file)).flatten({ background: '#ffffff' }), file);
  entries.push({ file, kind: 'diagram', source: `bench/real-sources/${name}.dot`, licence: 'ours (this repository)' });
}

// Headless chromium screenshots at device scale 1 (text at 9-13 px).
const SCREENS: [string, number, number][] = [
  ['settings', 800, 560],
  ['terminal', 1300, 340],
];
for (const [name, width, height] of SCREENS) {
  const file = `screenshot-${name}-${width}x${height}.png`;
  run('chromium', chromiumScreenshotArgs(join(SOURCES, `${name}.html`), width, height, join(work, file)));
  await png(sharp(join(work, file)).removeAlpha(), file);
  entries.push({
    file,
    kind: 'screenshot',
    source: `bench/real-sources/${name}.html`,
    licence: 'ours (this repository)',
  });
}

// Tango icons: small sizes are icons, large ones stand in for logos.
const ICONS: [string, number, Kind][] = [
  ['status/dialog-warning.svg', 16, 'icon'],
  ['emblems/emblem-favorite.svg', 24, 'icon'],
  ['places/start-here.svg', 32, 'icon'],
  ['apps/internet-web-browser.svg', 48, 'icon'],
  ['status/dialog-information.svg', 64, 'icon'],
  ['places/folder.svg', 256, 'logo'],
  ['emblems/emblem-important.svg', 512, 'logo'],
  ['places/start-here.svg', 1000, 'logo'],
  ['status/dialog-warning.svg', 2000, 'logo'],
];
for (const [icon, size, kind] of ICONS) {
  const name = icon.split('/')[1]!.replace('.svg', '');
  const file = `${kind}-${name}-${size}.png`;
  const rendered = new Resvg(readFileSync(join(TANGO, icon)), { fitTo: { mode: 'width', value: size } }).render();
  writeFileSync(join(OUT, file), rendered.asPng());
  entries.push({ file, kind, source: `tango-icon-theme ${icon}`, licence: 'public domain (Tango Desktop Project)' });
}

writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify(entries, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
console.log(`${entries.length} images in ${OUT}`);
