/**
 * Boxes in RGB around the segment between every two colours of a growing palette, widened by a
 * margin. A colour outside a pair's box is no mix of the two: some channel of it is further than the
 * margin from every point between them. So the exact segment test (ink-palette.ts) runs only for
 * the few pairs whose box holds the colour; a screenshot asks it of 1,400 distinct colours against
 * 30-50 palette colours, most of the palette's time before.
 */
export class MixBoxes {
  /** Per ordered pair (p, q) at (p * capacity + q) * 3: the box's lowest red, green and blue. */
  private readonly lo: Int16Array;
  private readonly hi: Int16Array;
  private readonly keys: Int32Array;
  private count = 0;

  constructor(
    private readonly capacity: number,
    private readonly margin: number,
  ) {
    this.lo = new Int16Array(capacity * capacity * 3);
    this.hi = new Int16Array(capacity * capacity * 3);
    this.keys = new Int32Array(capacity);
  }

  /** Appends a palette colour (an RGB key): its index is the number added before it. */
  add(key: number): void {
    const q = this.count++;
    this.keys[q] = key;
    for (let p = 0; p < q; p++) {
      const other = this.keys[p]!;
      for (let c = 0, shift = 16; c < 3; c++, shift -= 8) {
        const x = (key >> shift) & 255;
        const y = (other >> shift) & 255;
        const lo = Math.min(x, y) - this.margin;
        const hi = Math.max(x, y) + this.margin;
        this.lo[(p * this.capacity + q) * 3 + c] = this.lo[(q * this.capacity + p) * 3 + c] = lo;
        this.hi[(p * this.capacity + q) * 3 + c] = this.hi[(q * this.capacity + p) * 3 + c] = hi;
      }
    }
  }

  /** Whether `key` lies in the box of palette colours p and q (p ≠ q). */
  holds(key: number, p: number, q: number): boolean {
    const i = (p * this.capacity + q) * 3;
    const red = (key >> 16) & 255;
    if (red < this.lo[i]! || red > this.hi[i]!) return false;
    const green = (key >> 8) & 255;
    if (green < this.lo[i + 1]! || green > this.hi[i + 1]!) return false;
    const blue = key & 255;
    return blue >= this.lo[i + 2]! && blue <= this.hi[i + 2]!;
  }
}
