import type { VectorPath } from '@trove/vectorize';

/** PostScript has no transparency: a translucent colour is shown as it would look over white. */
function onWhite(channel: number, alpha: number): number {
  return (channel * alpha + 255 * (255 - alpha)) / 255;
}

const num = (value: number) => String(Math.round(value * 100) / 100);

/**
 * Encapsulated PostScript (EPSF-3.0) of the path list. PostScript's y axis points up, so every y
 * becomes height − y. Lines are kept well under 255 characters, as DSC readers expect.
 */
export function writeEps(width: number, height: number, paths: VectorPath[]): Buffer {
  const lines: string[] = [
    '%!PS-Adobe-3.0 EPSF-3.0',
    `%%BoundingBox: 0 0 ${Math.ceil(width)} ${Math.ceil(height)}`,
    `%%HiResBoundingBox: 0 0 ${width} ${height}`,
    '%%Creator: trove vectorize-api',
    '%%LanguageLevel: 2',
    '%%Pages: 1',
    '%%EndComments',
    '%%Page: 1 1',
    'gsave',
    '/m { moveto } bind def /l { lineto } bind def /c { curveto } bind def /z { closepath } bind def',
  ];
  const y = (value: number) => num(height - value);
  for (const path of paths) {
    const { r, g, b, a } = path.color;
    if (a === 0) continue;
    lines.push(`newpath ${[r, g, b].map((channel) => (onWhite(channel, a) / 255).toFixed(4)).join(' ')} setrgbcolor`);
    let line = '';
    const emit = (op: string) => {
      if (line.length + op.length > 200) {
        lines.push(line);
        line = '';
      }
      line = line ? `${line} ${op}` : op;
    };
    for (const command of path.commands) {
      switch (command[0]) {
        case 'M':
          emit(`${num(command[1])} ${y(command[2])} m`);
          break;
        case 'L':
          emit(`${num(command[1])} ${y(command[2])} l`);
          break;
        case 'C':
          emit(
            `${num(command[1])} ${y(command[2])} ${num(command[3])} ${y(command[4])} ${num(command[5])} ${y(command[6])} c`,
          );
          break;
        case 'Z':
          emit('z');
          break;
      }
    }
    emit('fill');
    lines.push(line);
  }
  lines.push('grestore', 'showpage', '%%EOF', '');
  return Buffer.from(lines.join('\n'), 'latin1');
}
