/** Channels of an RGB key (r << 16 | g << 8 | b), the form the ink palette keeps colours in. */
export const r = (k: number) => (k >> 16) & 255;
export const g = (k: number) => (k >> 8) & 255;
export const b = (k: number) => k & 255;
