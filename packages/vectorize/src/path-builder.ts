import type { PathCommand } from './types.ts';

/** Commands are read-only: every sub-path can end in the same one. */
const CLOSE: PathCommand = ['Z'];

/** Collects commands of one path, rounding every coordinate once so SVG, PDF and EPS agree exactly. */
export class PathBuilder {
  readonly commands: PathCommand[] = [];
  private readonly scale: number;

  constructor(precision: number) {
    this.scale = 10 ** precision;
  }

  round(value: number): number {
    // Pixel corners are integers already: returned as they are, they stay small integers in V8
    // (a rounded quotient is a heap number, one allocation per coordinate of a pixel-exact trace).
    if (Number.isInteger(value)) return value === 0 ? 0 : value;
    const rounded = Math.round(value * this.scale) / this.scale;
    return rounded === 0 ? 0 : rounded;
  }

  moveTo(x: number, y: number): void {
    this.commands.push(['M', this.round(x), this.round(y)]);
  }

  lineTo(x: number, y: number): void {
    this.commands.push(['L', this.round(x), this.round(y)]);
  }

  curveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    this.commands.push([
      'C',
      this.round(x1),
      this.round(y1),
      this.round(x2),
      this.round(y2),
      this.round(x),
      this.round(y),
    ]);
  }

  close(): void {
    // A line back to the start is implied by Z: drop it.
    const last = this.commands[this.commands.length - 1];
    let start: PathCommand | undefined;
    for (let i = this.commands.length - 1; i >= 0; i--) {
      if (this.commands[i]![0] === 'M') {
        start = this.commands[i];
        break;
      }
    }
    if (last && last[0] === 'L' && start && last[1] === start[1] && last[2] === start[2]) this.commands.pop();
    this.commands.push(CLOSE);
  }

  /** A closed polygon from flat [x0, y0, ...] points (the first `length` numbers). */
  polygon(points: ArrayLike<number>, length = points.length): void {
    if (length < 6) return;
    const { commands } = this;
    const x0 = this.round(points[0]!);
    const y0 = this.round(points[1]!);
    commands.push(['M', x0, y0]);
    // As close(): a last point on the start is implied by Z. Known here without searching back
    // for the M, which a trace of many small pieces paid for on every one.
    let end = length;
    if (this.round(points[length - 2]!) === x0 && this.round(points[length - 1]!) === y0) end -= 2;
    for (let i = 2; i < end; i += 2) commands.push(['L', this.round(points[i]!), this.round(points[i + 1]!)]);
    commands.push(CLOSE);
  }
}
