import { type Html, html, raw } from './html.ts';

/**
 * Events over time as an inline SVG bar chart: drawn on the server, so it needs no script and no
 * asset, and reads out as a sentence to screen readers.
 */
export function barChart(buckets: number[], label: string, size: { width: number; height: number }): Html {
  const max = Math.max(1, ...buckets);
  const step = size.width / Math.max(1, buckets.length);
  const bars = buckets
    .map((n, i) => {
      const h = n === 0 ? 0 : Math.max(1, Math.round((n / max) * size.height));
      return `<rect x="${(i * step).toFixed(1)}" y="${size.height - h}" width="${Math.max(1, step - 1).toFixed(1)}" height="${h}"></rect>`;
    })
    .join('');
  const total = buckets.reduce((a, b) => a + b, 0);
  return html`<svg class="chart" role="img" viewBox="0 0 ${size.width} ${size.height}" width="${size.width}" height="${size.height}" preserveAspectRatio="none"><title>${label}: ${total} events, at most ${max} in one bar</title>${raw(bars)}</svg>`;
}
