import type { PathCommand } from './types.ts';

/** Collects commands of one path, rounding every coordinate once so SVG, PDF and EPS agree exactly. */
export class PathBuilder {
  readonly commands: PathCommand[] = [];
  private readonly scale: number;

  constructor(precision: number) {
    this.scale = 10 ** precision;
  }

  round(value: number): number {
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
    const r = (v: number): number => this.round(v);
    this.commands.push(['C', r(x1), r(y1), r(x2), r(y2), r(x), r(y)]);
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
    this.commands.push(['Z']);
  }

  /** A closed polygon from flat [x0, y0, ...] points. */
  polygon(points: ArrayLike<number>): void {
    if (points.length < 6) return;
    this.moveTo(points[0]!, points[1]!);
    for (let i = 2; i < points.length; i += 2) this.lineTo(points[i]!, points[i + 1]!);
    this.close();
  }
}
