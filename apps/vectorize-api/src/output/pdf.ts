import type { VectorPath } from '@trove/vectorize';
import PDFDocument from 'pdfkit';

/**
 * One page the size of the image, each path filled with its colour and opacity (non-zero rule).
 * pdfkit's page space has the origin top left with y down, like the path list, so no flip here.
 */
export function writePdf(width: number, height: number, paths: VectorPath[]): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [width, height],
    margin: 0,
    compress: true,
    info: { Producer: 'trove vectorize-api' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const path of paths) {
    for (const command of path.commands) {
      switch (command[0]) {
        case 'M':
          doc.moveTo(command[1], command[2]);
          break;
        case 'L':
          doc.lineTo(command[1], command[2]);
          break;
        case 'C':
          doc.bezierCurveTo(command[1], command[2], command[3], command[4], command[5], command[6]);
          break;
        case 'Z':
          doc.closePath();
          break;
      }
    }
    const { r, g, b, a } = path.color;
    doc.fillColor([r, g, b], a / 255).fill('non-zero');
  }
  doc.end();
  return done;
}
