import type { VectorPath } from '@trove/vectorize';
import PDFDocument from 'pdfkit';

/**
 * One page the size of the image, each path filled with its colour and opacity (non-zero rule).
 * pdfkit's page space has the origin top left with y down, like the path list, so no flip here.
 *
 * The file is a function of the paths alone: the same image and options give the same bytes
 * wherever and whenever they are traced (in process or on a vectorizer-worker, now or in a retry).
 * pdfkit would stamp the time of writing as CreationDate and derive the file ID from it; the ID is
 * derived from a fixed date instead, and no creation date is written (the entry is optional):
 * pdfkit writes the info entries it can enumerate, and still reads the date for its XMP code.
 */
export function writePdf(width: number, height: number, paths: VectorPath[]): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [width, height],
    margin: 0,
    compress: true,
    info: { Producer: 'trove vectorize-api', CreationDate: new Date(0) },
  });
  Object.defineProperty(doc.info, 'CreationDate', { value: new Date(0), enumerable: false });
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
