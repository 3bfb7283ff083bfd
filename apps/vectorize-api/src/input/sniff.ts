/** The raster formats accepted, recognised by their first bytes rather than by name or MIME type. */
export type ImageKind = 'png' | 'jpeg' | 'webp' | 'bmp' | 'gif' | 'tiff';

export const ACCEPTED_KINDS = 'PNG, JPEG, WebP, BMP, GIF or TIFF';

const startsWith = (bytes: Buffer, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

export function sniffImageKind(bytes: Buffer): ImageKind | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'gif';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(bytes, [0x42, 0x4d])) return 'bmp';
  return null;
}
