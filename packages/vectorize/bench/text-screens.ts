/**
 * Screenshots for the OCR benchmark taken by headless chromium (its hinting and anti-aliasing are
 * not resvg's: 9-px monospace code is where snapping used to lose words), from our own pages in
 * bench/text-sources/*.html. `npx tsx bench/text-screens.ts` renders them into fixtures/text/
 * (needs chromium); the benchmark reads the committed PNGs. The words of a picture, and of the
 * held-out real set (graphviz and HTML sources), come from their sources, so OCR noise read into a
 * gutter or a bullet is not counted as a word the picture holds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromiumScreenshotArgs } from './chromium.ts';
import { isSelected } from './only.ts';
import { loadPng } from './quality.ts';
import { type TextImage, wordsOf } from './text-images.ts';

const HERE = import.meta.dirname;
const SOURCES = join(HERE, 'text-sources');
const OUT = join(HERE, '..', 'fixtures', 'text');

/** name, window width, height, and for a picture of a page taken zoomed, its zoom. */
const SCREENS: [string, number, number, number?][] = [
  ['editor', 560, 250],
  ['logs', 620, 150],
  ['docs', 640, 340],
  ['dashboard', 560, 230],
  ['review', 560, 190],
  ['console', 520, 175],
  ['shell', 1180, 200],
  ['diff', 1240, 210],
  ['chart', 660, 300],
  ['chat', 560, 250],
  ['landing', 720, 200],
  ['night', 640, 130],
  ['form', 380, 260],
  ['sheet', 350, 150],
  ['ide', 900, 510],
  ['term', 820, 300],
  // At 90 % its ANSI colours each cover under 0.2 % of the page: only the paper was dominant, and
  // `auto` sent it to spline, which kept none of its words.
  ['shell', 1180, 200, 0.9],
  // A dark panel beside light paper (tesseract's whole-page threshold is then ambiguous; see
  // vectorize-api's README): a notebook with dark output cells, a dark side bar, an editor over a
  // dark terminal, a guide with dark code blocks.
  ['notebook', 600, 330],
  ['sidenav', 700, 260],
  ['workbench', 640, 300],
  ['guide', 620, 330],
];
/** Graphviz diagrams (bench/text-sources/<name>.dot), drawn at 96 dpi: 8-9 pt labels, 1-px lines. */
const DIAGRAMS = ['release', 'accounts', 'network'];

/** A page's picture: its name, with the zoom when it is not 100 % (shell-90). */
const screenName = (name: string, zoom?: number) => (zoom ? `${name}-${Math.round(zoom * 100)}` : name);

const ENTITIES: Record<string, string> = { nbsp: ' ', lt: '<', gt: '>', amp: '&', middot: '·', quot: '"' };

/** The text a page or a graphviz file shows (a superset for graphviz: its keywords count too). */
export function sourceText(path: string): string {
  const text = readFileSync(path, 'utf8');
  // graphviz: line breaks (\n, \l, \r) and record separators ({, |, }, <port>) are not in the labels.
  if (!path.endsWith('.html')) return text.replace(/\\[nlr]/g, ' ').replace(/<\w*>|[{}|\\]/g, ' ');
  return text
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<br>|<\/(div|p|tr|td|th|pre|h\d)>/g, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(\w+);/g, (_, name: string) => ENTITIES[name] ?? ' ');
}

/** The words a page or a graphviz file shows, as the benchmark counts them. */
const vocabulary = (path: string): Set<string> => new Set(wordsOf(sourceText(path)));

/** Colours a page draws text and lines in (its CSS `color` and border colours), #rrggbb. */
function pageInks(path: string): string[] {
  const css = readFileSync(path, 'utf8');
  const inks = new Set<string>();
  for (const m of css.matchAll(/(?:^|[;{\s])(?:color|border[\w-]*):[^;}]*?(#[0-9a-f]{6})/gi))
    inks.add(m[1]!.toLowerCase());
  return [...inks];
}

/** The held-out pictures' vocabulary: fixtures/real/<file> → its source under bench/real-sources. */
export function realVocabulary(file: string): Set<string> | undefined {
  const manifest = JSON.parse(readFileSync(join(HERE, '..', 'fixtures', 'real', 'manifest.json'), 'utf8')) as {
    file: string;
    source: string;
  }[];
  const source = manifest.find((entry) => entry.file === file)?.source;
  if (!source?.startsWith('bench/')) return undefined;
  return vocabulary(join(HERE, '..', source));
}

/**
 * The vocabulary of a picture of one of our pages taken zoomed (`--zoom`: editor-80.png → the
 * editor page's words), or undefined when `file` is no such picture.
 */
export function zoomedPageVocabulary(file: string): Set<string> | undefined {
  const page = /^(\w+)-\d+\.png$/.exec(file)?.[1];
  const source = page && join(SOURCES, `${page}.html`);
  return source && existsSync(source) ? vocabulary(source) : undefined;
}

export async function textScreens(): Promise<TextImage[]> {
  const pages = SCREENS.map(([name, , , zoom]) => ({
    name: screenName(name, zoom),
    source: join(SOURCES, `${name}.html`),
    by: 'chromium',
  }));
  const diagrams = DIAGRAMS.map((name) => ({ name, source: join(SOURCES, `${name}.dot`), by: 'graphviz' }));
  return Promise.all(
    [...pages, ...diagrams].map(async ({ name, source, by }) => {
      const image = await loadPng(join(OUT, `${name}.png`));
      return {
        name: `${name} (${by})`,
        kind: by === 'chromium' ? ('screenshot' as const) : ('diagram' as const),
        image,
        clean: image,
        // Graphviz colours are attributes, not CSS: no ink colours known, so no ΔE for diagrams.
        inks: by === 'chromium' ? pageInks(source) : [],
        words: vocabulary(source),
      };
    }),
  );
}

/** Takes a page with chromium into `file`, its text zoomed by `zoom` (CSS) when given. */
function screenshot(name: string, width: number, height: number, file: string, zoom?: number): void {
  let page = join(SOURCES, `${name}.html`);
  if (zoom) {
    const html = readFileSync(page, 'utf8').replace('</head>', `<style>html{zoom:${zoom}}</style></head>`);
    page = join(mkdtempSync(join(tmpdir(), 'trove-page-')), `${name}.html`);
    writeFileSync(page, html);
  }
  execFileSync('chromium', chromiumScreenshotArgs(page, width, height, file), { stdio: 'pipe' });
  if (zoom) rmSync(dirname(page), { recursive: true, force: true });
  if (!existsSync(file)) throw new Error(`chromium wrote no ${file}`);
  console.log(file);
}

// npx tsx bench/text-screens.ts                  retakes fixtures/text/ (BENCH_ONLY=a,b: those)
// npx tsx bench/text-screens.ts --zoom 0.8 DIR   every page at 80 % into DIR (a check on smaller
//                                                text: npx tsx bench/text.ts DIR/*.png)
if (process.argv[1] === import.meta.filename) {
  const [flag, zoom, dir] = process.argv.slice(2);
  if (flag === '--zoom') {
    const factor = Number(zoom);
    if (!dir || !(factor > 0 && factor < 1)) throw new Error('usage: text-screens.ts --zoom Z DIR, Z between 0 and 1');
    mkdirSync(dir, { recursive: true });
    for (const [name, width, height, own] of SCREENS)
      if (!own) screenshot(name, width, height, join(dir, `${screenName(name, factor)}.png`), factor);
  } else {
    for (const [name, width, height, own] of SCREENS)
      if (isSelected(name)) screenshot(name, width, height, join(OUT, `${screenName(name, own)}.png`), own);
    for (const name of DIAGRAMS.filter(isSelected)) {
      const file = join(OUT, `${name}.png`);
      execFileSync('dot', ['-Tpng', '-Gdpi=96', join(SOURCES, `${name}.dot`), '-o', file], { stdio: 'pipe' });
      console.log(file);
    }
  }
}
