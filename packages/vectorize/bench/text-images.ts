/**
 * Pictures with text and thin lines for the OCR benchmark, drawn here from SVG we write and rendered
 * with resvg (DejaVu fonts, as Debian ships them): a code screenshot, a settings screen, a diagram
 * with 11 px labels and 1 px connectors, a bar chart, a scanned page (paper tint, sensor noise), light
 * text on a dark panel and notice cards on a tinted page (serif, condensed, mono, bold, italic, 8.5-12 px).
 * Each comes with the ink colours its text and lines were drawn in, and the clean render before
 * noise, so the colour check knows which pixels are ink.
 */
import { Resvg } from '@resvg/resvg-js';
import type { Pixels } from './quality.ts';

export interface TextImage {
  name: string;
  kind: 'screenshot' | 'diagram' | 'chart' | 'scan';
  image: Pixels;
  /** The render before noise: ink pixels are those exactly in an ink colour here. */
  clean: Pixels;
  /** Colours of text and lines, #rrggbb. */
  inks: string[];
  /** Every word written into the picture (see wordsOf): what OCR may rightly read. */
  words: Set<string>;
}

/** Words of a text as the benchmark compares them: punctuation trimmed, two characters or more. */
export function wordsOf(text: string): string[] {
  return text
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word.length >= 2);
}

let lastWords = new Set<string>();

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function render(svg: string): Pixels {
  // Text content, tags removed (tspans joined as drawn), for the vocabulary of the picture.
  const text = svg
    .replace(/<\/text>/g, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  lastWords = new Set(wordsOf(text));
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'original' },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  });
  const out = resvg.render();
  return { width: out.width, height: out.height, data: new Uint8Array(out.pixels) };
}

const CODE = [
  ['kw', 'import'],
  ['tx', ' { readFile } '],
  ['kw', 'from'],
  ['st', " 'node:fs/promises';"],
  ['nl', ''],
  ['kw', 'export async function'],
  ['fn', ' loadSettings'],
  ['tx', '(path: string, fallback: Settings): Promise<Settings> {'],
  ['nl', ''],
  ['tx', '  '],
  ['kw', 'const'],
  ['tx', ' text = '],
  ['kw', 'await'],
  ['fn', ' readFile'],
  ['tx', '(path, '],
  ['st', "'utf8'"],
  ['tx', ').catch(() => '],
  ['kw', 'null'],
  ['tx', ');'],
  ['nl', ''],
  ['tx', '  '],
  ['kw', 'if'],
  ['tx', ' (text === '],
  ['kw', 'null'],
  ['tx', ') '],
  ['kw', 'return'],
  ['tx', ' fallback;'],
  ['cm', '  // missing file: keep defaults'],
  ['nl', ''],
  ['tx', '  '],
  ['kw', 'const'],
  ['tx', ' parsed = JSON.parse(text) '],
  ['kw', 'as'],
  ['tx', ' Partial<Settings>;'],
  ['nl', ''],
  ['tx', '  '],
  ['kw', 'return'],
  ['tx', ' { ...fallback, ...parsed, loadedAt: Date.now() };'],
  ['nl', ''],
  ['tx', '}'],
  ['nl', ''],
  ['nl', ''],
  ['cm', '/** Counts the words of every line and reports the longest line found in the file. */'],
  ['nl', ''],
  ['kw', 'export function'],
  ['fn', ' summarise'],
  ['tx', '(lines: string[]): { words: number; longest: number } {'],
  ['nl', ''],
  ['tx', '  '],
  ['kw', 'let'],
  ['tx', ' words = '],
  ['nu', '0'],
  ['tx', ';'],
  ['nl', ''],
  ['tx', '  '],
  ['kw', 'let'],
  ['tx', ' longest = '],
  ['nu', '0'],
  ['tx', ';'],
  ['nl', ''],
  ['tx', '  '],
  ['kw', 'for'],
  ['tx', ' ('],
  ['kw', 'const'],
  ['tx', ' line '],
  ['kw', 'of'],
  ['tx', ' lines) {'],
  ['nl', ''],
  ['tx', '    words += line.split(/\\s+/).filter(Boolean).length;'],
  ['nl', ''],
  ['tx', '    longest = Math.max(longest, line.length);'],
  ['nl', ''],
  ['tx', '  }'],
  ['nl', ''],
  ['tx', '  '],
  ['kw', 'return'],
  ['tx', ' { words, longest };'],
  ['nl', ''],
  ['tx', '}'],
] as const;

function codeScreenshot(): TextImage {
  const colors = { kw: '#7b30d0', tx: '#24292f', st: '#0a6b2d', fn: '#8250df', cm: '#6e7781', nu: '#0550ae' };
  const lines: string[] = [];
  let line = '';
  let y = 40;
  for (const [kind, text] of CODE) {
    if (kind === 'nl') {
      lines.push(`<text x="56" y="${y}" xml:space="preserve">${line}</text>`);
      line = '';
      y += 19;
      continue;
    }
    line += `<tspan fill="${colors[kind]}">${esc(text)}</tspan>`;
  }
  lines.push(`<text x="56" y="${y}" xml:space="preserve">${line}</text>`);
  const gutter = lines.map((_, i) => `<text x="40" y="${40 + i * 19}" text-anchor="end">${i + 1}</text>`).join('');
  const width = 900;
  const height = y + 30;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="100%" height="100%" fill="#ffffff"/><rect width="48" height="100%" fill="#f6f8fa"/>
<g font-family="DejaVu Sans Mono" font-size="13" fill="#8c959f">${gutter}</g>
<g font-family="DejaVu Sans Mono" font-size="13">${lines.join('\n')}</g></svg>`;
  const image = render(svg);
  return {
    name: 'code-screenshot',
    kind: 'screenshot',
    image,
    clean: image,
    inks: Object.values(colors),
    words: lastWords,
  };
}

function settingsScreen(): TextImage {
  const rows = [
    ['Automatic updates', 'Download and install updates when the computer is idle'],
    ['Location services', 'Allow applications to determine your approximate position'],
    ['Screen lock delay', 'Lock the screen five minutes after the display turns off'],
    ['Notification sounds', 'Play a short sound when a new message arrives'],
    ['Night light schedule', 'Warmer colours from sunset until sunrise every evening'],
  ];
  const items = rows
    .map(
      ([title, detail], i) =>
        `<g transform="translate(24 ${70 + i * 58})"><rect width="552" height="50" rx="6" fill="#ffffff" stroke="#d0d7de"/>` +
        `<text x="14" y="21" font-size="13" font-weight="bold" fill="#202124">${title}</text>` +
        `<text x="14" y="39" font-size="11" fill="#5f6368">${detail}</text>` +
        `<rect x="500" y="17" width="36" height="16" rx="8" fill="${i % 2 ? '#bdc1c6' : '#1a73e8'}"/></g>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="370" font-family="DejaVu Sans">
<rect width="100%" height="100%" fill="#f1f3f4"/><text x="24" y="44" font-size="18" fill="#202124">Privacy and system settings</text>
<line x1="24" y1="56" x2="576" y2="56" stroke="#dadce0"/>${items}</svg>`;
  const image = render(svg);
  return {
    name: 'settings-screen',
    kind: 'screenshot',
    image,
    clean: image,
    inks: ['#202124', '#5f6368'],
    words: lastWords,
  };
}

function diagram(): TextImage {
  const boxes = [
    ['Upload', 'multipart form', 20, 30],
    ['Decode', 'sharp to RGBA', 200, 30],
    ['Trace', 'worker thread', 380, 30],
    ['Optimise', 'svgo preset', 380, 150],
    ['Sanitise', 'remove links', 200, 150],
    ['Answer', 'JSON or file', 20, 150],
  ] as const;
  const ink = '#202124';
  const parts = boxes.map(
    ([title, detail, x, y]) =>
      `<rect x="${x}.5" y="${y}.5" width="140" height="54" fill="#e8f0fe" stroke="${ink}"/>` +
      `<text x="${x + 70}" y="${y + 24}" text-anchor="middle" font-size="12" font-weight="bold" fill="${ink}">${title}</text>` +
      `<text x="${x + 70}" y="${y + 41}" text-anchor="middle" font-size="11" fill="${ink}">${detail}</text>`,
  );
  const links = [
    [160, 57, 200, 57],
    [340, 57, 380, 57],
    [450, 84, 450, 150],
    [380, 177, 340, 177],
    [200, 177, 160, 177],
  ]
    .map(([x1, y1, x2, y2]) => `<line x1="${x1}" y1="${y1! + 0.5}" x2="${x2}" y2="${y2! + 0.5}" stroke="${ink}"/>`)
    .join('');
  const notes =
    `<text x="20" y="250" font-size="11" fill="${ink}">Every stage runs on a pool thread except decoding, which sharp runs on libuv threads.</text>` +
    `<text x="20" y="266" font-size="11" fill="${ink}">Errors answer with a status code and a message written for the caller.</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="578" height="290" font-family="DejaVu Sans">
<rect width="100%" height="100%" fill="#ffffff"/>${parts.join('')}${links}${notes}</svg>`;
  const image = render(svg);
  return { name: 'diagram-pipeline', kind: 'diagram', image, clean: image, inks: [ink], words: lastWords };
}

function barChart(): TextImage {
  const values = [42, 67, 35, 81, 58, 73];
  const labels = ['January', 'February', 'March', 'April', 'May', 'June'];
  const axis = '#3c4043';
  const bars = values
    .map((v, i) => {
      const x = 80 + i * 78;
      const h = v * 3;
      return (
        `<rect x="${x}" y="${340 - h}" width="44" height="${h}" fill="#4285f4"/>` +
        `<text x="${x + 22}" y="358" text-anchor="middle" font-size="11" fill="${axis}">${labels[i]}</text>` +
        `<text x="${x + 22}" y="${334 - h}" text-anchor="middle" font-size="11" fill="${axis}">${v}</text>`
      );
    })
    .join('');
  const grid = [0, 20, 40, 60, 80, 100]
    .map(
      (v) =>
        `<line x1="60" x2="560" y1="${340.5 - v * 3}" y2="${340.5 - v * 3}" stroke="#dadce0"/>` +
        `<text x="52" y="${344 - v * 3}" text-anchor="end" font-size="11" fill="${axis}">${v}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="580" height="400" font-family="DejaVu Sans">
<rect width="100%" height="100%" fill="#ffffff"/>${grid}${bars}
<line x1="60.5" y1="30" x2="60.5" y2="341" stroke="${axis}"/>
<text x="310" y="22" text-anchor="middle" font-size="14" font-weight="bold" fill="#202124">Monthly active projects</text>
<text x="310" y="385" text-anchor="middle" font-size="12" fill="#202124">Month of the first half year</text></svg>`;
  const image = render(svg);
  return { name: 'bar-chart', kind: 'chart', image, clean: image, inks: [axis, '#202124'], words: lastWords };
}

function scannedPage(): TextImage {
  const paragraph = [
    'The committee met on the third of March to review the proposal for',
    'the new library building. Members agreed that the reading rooms should',
    'face north, away from the afternoon sun, and that the archive must be',
    'kept below ground where the temperature changes least over the year.',
    'A second meeting will consider the budget, the timetable for building',
    'work, and how the collection can stay open to readers while it moves.',
  ];
  const ink = '#1c1b1f';
  const text = paragraph
    .map((line, i) => `<text x="40" y="${70 + i * 22}" font-size="14" fill="${ink}">${line}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="620" height="230" font-family="DejaVu Serif">
<rect width="100%" height="100%" fill="#f4efe4"/>
<text x="40" y="40" font-size="16" font-weight="bold" fill="${ink}">Minutes of the building committee</text>${text}</svg>`;
  const clean = render(svg);
  // Sensor noise, deterministic: a scanner's grain on paper and ink alike.
  const data = new Uint8Array(clean.data);
  let seed = 12345;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  for (let i = 0; i < data.length; i += 4) {
    const grain = Math.round((random() + random() + random() - 1.5) * 8);
    for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, data[i + c]! + grain));
  }
  return {
    name: 'scanned-page',
    kind: 'scan',
    image: { width: clean.width, height: clean.height, data },
    clean,
    inks: [ink],
    words: lastWords,
  };
}

/** Light text on a dark blue panel: serif, sans and bold monospace at 9-12 px, three ink colours. */
function darkPanel(): TextImage {
  const lines = [
    ['DejaVu Serif', 12, 'normal', '#e6edf3', 'Release notes for the spring maintenance window'],
    ['DejaVu Sans', 10, 'normal', '#7ee787', 'Passed: storage migration finished without errors'],
    ['DejaVu Sans Mono', 10, 'bold', '#ffa657', 'Warning: cache rebuild takes about twenty minutes'],
    ['DejaVu Sans', 9, 'normal', '#e6edf3', 'Contact the operations team before restarting any service'],
    ['DejaVu Serif', 11, 'italic', '#7ee787', 'Backups verified on every replica this morning'],
    ['DejaVu Sans Condensed', 11, 'normal', '#ffa657', 'Scheduled downtime begins Saturday at seven'],
  ] as const;
  const text = lines
    .map(
      ([family, size, style, fill, words], i) =>
        `<text x="18" y="${40 + i * 24}" font-family="${family}" font-size="${size}"${style === 'bold' ? ' font-weight="bold"' : style === 'italic' ? ' font-style="italic"' : ''} fill="${fill}">${words}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="190">
<rect width="100%" height="100%" fill="#1f2a44"/><line x1="12" y1="20" x2="408" y2="20" stroke="#3d4b6b"/>${text}</svg>`;
  const image = render(svg);
  return {
    name: 'dark-panel',
    kind: 'screenshot',
    image,
    clean: image,
    inks: ['#e6edf3', '#7ee787', '#ffa657'],
    words: lastWords,
  };
}

/** Cards on a tinted page: 8-10 px grey, link-blue and red text in four faces, 1 px borders. */
function noticeCards(): TextImage {
  const cards = [
    ['DejaVu Sans', 'Invoice overdue', 'Payment for order number seven is three days late', '#c5221f'],
    ['DejaVu Serif', 'Shipping update', 'Your parcel left the warehouse and arrives tomorrow', '#1a73e8'],
    ['DejaVu Sans Condensed', 'Account security', 'A new device signed in from another city today', '#c5221f'],
    ['DejaVu Sans Mono', 'Storage almost full', 'Delete old files or upgrade your plan soon', '#1a73e8'],
  ] as const;
  const items = cards
    .map(
      ([family, title, detail, accent], i) =>
        `<g transform="translate(${16 + (i % 2) * 262} ${16 + Math.floor(i / 2) * 74})" font-family="${family}">` +
        `<rect width="250" height="64" fill="#fffdf5" stroke="#d9cfa9"/>` +
        `<text x="10" y="18" font-size="10" font-weight="bold" fill="${accent}">${title}</text>` +
        `<text x="10" y="36" font-size="8.5" fill="#5f6368">${detail}</text>` +
        `<text x="10" y="54" font-size="9" fill="#1a73e8" text-decoration="underline">Open details</text></g>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="544" height="180">
<rect width="100%" height="100%" fill="#fbf3dc"/>${items}</svg>`;
  const image = render(svg);
  return {
    name: 'notice-cards',
    kind: 'screenshot',
    image,
    clean: image,
    inks: ['#c5221f', '#1a73e8', '#5f6368'],
    words: lastWords,
  };
}

export function textImages(): TextImage[] {
  return [codeScreenshot(), settingsScreen(), diagram(), barChart(), scannedPage(), darkPanel(), noticeCards()];
}
