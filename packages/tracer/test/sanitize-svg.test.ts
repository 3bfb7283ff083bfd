import { describe, expect, it } from 'vitest';
import { OPTIMIZE_PRESETS, optimizeSvg } from '../src/index.ts';
import { SVG_ATTACKS, SVG_SAFE_REFERENCES, unsafeLeftovers } from './fixtures/svg-attacks.ts';

const settings = (preset: (typeof OPTIMIZE_PRESETS)[number]) => ({ preset, multipass: false, iterations: 1 });

describe('optimizeSvg removes external references and script with every preset', () => {
  const cases = Object.entries(SVG_ATTACKS).flatMap(([name, svg]) =>
    OPTIMIZE_PRESETS.map((preset) => [name, preset, svg] as const),
  );

  it('the corpus is caught by the independent check before cleaning', () => {
    for (const [name, svg] of Object.entries(SVG_ATTACKS)) expect(unsafeLeftovers(svg), name).not.toEqual([]);
  });

  it.each(cases)('%s (preset %s)', (_name, preset, svg) => {
    const { svg: cleaned, removed } = optimizeSvg(svg, settings(preset));
    expect(removed).toBeGreaterThan(0);
    expect(unsafeLeftovers(cleaned)).toEqual([]);
    expect(cleaned).toContain('#123456');
  });

  it.each(OPTIMIZE_PRESETS)('keeps #id references and embedded rasters (preset %s)', (preset) => {
    const { svg, removed } = optimizeSvg(SVG_SAFE_REFERENCES, settings(preset));
    expect(removed).toBe(0);
    expect(unsafeLeftovers(svg)).toEqual([]);
    expect(svg).toContain('data:image/png;base64,');
    if (preset !== 'default') expect(svg).toContain('url(#g)');
  });

  it('counts each removal: two handlers, a script and an outside link', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" onload="a()"><script>b()</script><a href="http://x.example"><rect onclick="c()"/></a></svg>';
    const { svg: cleaned, removed } = optimizeSvg(svg, settings('none'));
    expect(removed).toBe(4);
    expect(cleaned).toBe('<svg xmlns="http://www.w3.org/2000/svg"><a><rect/></a></svg>');
  });

  it('an outside url() falls back as in a browser that cannot load it, not to the default black', () => {
    const clean = (inner: string) =>
      optimizeSvg(`<svg xmlns="http://www.w3.org/2000/svg">${inner}</svg>`, settings('none'));
    const cases: [string, string, number][] = [
      ['<rect fill="url(http://x.example/p#g)"/>', '<rect fill="none"/>', 1],
      ['<rect fill="url(http://x.example/p#g) #f00" stroke="url(#g)"/>', '<rect fill="#f00" stroke="url(#g)"/>', 1],
      [
        '<rect style="fill: url(http://x.example/p#g) #0f0; stroke: url(\'//x.example/q\') !important"/>',
        '<rect style="fill: #0f0;stroke: none !important"/>',
        2,
      ],
      ['<g cursor="url(http://x.example/c.cur), auto"/>', '<g cursor="auto"/>', 1],
      [
        '<style>rect { fill: url(http://x.example/p#g) } g { fill: url(http://x.example/p#g) blue }</style>',
        '<style>rect { fill: none } g { fill: blue }</style>',
        2,
      ],
      // Left unsafe once its url() is out (an escaped function name): removed whole, counted once.
      ['<rect fill="url(http://x.example/p) \\75rl(http://x.example/e)"/>', '<rect/>', 1],
    ];
    for (const [input, output, removed] of cases)
      expect(clean(input), input).toEqual({ svg: `<svg xmlns="http://www.w3.org/2000/svg">${output}</svg>`, removed });
  });

  it('preset none hands a clean document back byte for byte', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg">\n  <rect width="1"   height="1"/>\n</svg>';
    expect(optimizeSvg(svg, settings('none'))).toEqual({ svg, removed: 0 });
  });
});
