import type { PathCommand, VectorPath } from '@trove/vectorize';

/**
 * A path list in four typed arrays. Posting `VectorPath[]` between threads clones every command
 * tuple (a photo has ~100k), which took 120–200 ms on the receiving event loop; typed arrays are
 * transferred instead, and unpacked only when a PDF or EPS writer needs them.
 */
export interface PackedPaths {
  /** r, g, b, a per path. */
  colors: Uint8Array;
  /** Number of commands per path. */
  commandCounts: Uint32Array;
  /** One op code per command: 0 M, 1 L, 2 C, 3 Z. */
  ops: Uint8Array;
  /** The commands' numbers, in order (2 for M and L, 6 for C, none for Z). */
  coords: Float64Array;
}

const OPS = ['M', 'L', 'C', 'Z'] as const;
const ARITY = [2, 2, 6, 0];

export function packPaths(paths: readonly VectorPath[]): PackedPaths {
  let commandTotal = 0;
  let coordTotal = 0;
  for (const path of paths) {
    commandTotal += path.commands.length;
    for (const command of path.commands) coordTotal += command.length - 1;
  }
  const packed: PackedPaths = {
    colors: new Uint8Array(paths.length * 4),
    commandCounts: new Uint32Array(paths.length),
    ops: new Uint8Array(commandTotal),
    coords: new Float64Array(coordTotal),
  };
  let op = 0;
  let coord = 0;
  paths.forEach((path, index) => {
    const { r, g, b, a } = path.color;
    packed.colors.set([r, g, b, a], index * 4);
    packed.commandCounts[index] = path.commands.length;
    for (const command of path.commands) {
      packed.ops[op++] = OPS.indexOf(command[0]);
      for (let i = 1; i < command.length; i++) packed.coords[coord++] = command[i] as number;
    }
  });
  return packed;
}

export function unpackPaths(packed: PackedPaths): VectorPath[] {
  const paths: VectorPath[] = [];
  let op = 0;
  let coord = 0;
  for (let index = 0; index < packed.commandCounts.length; index++) {
    const commands: PathCommand[] = [];
    const count = packed.commandCounts[index] as number;
    for (let i = 0; i < count; i++) {
      const code = packed.ops[op++] as number;
      const numbers = Array.from(packed.coords.subarray(coord, coord + (ARITY[code] as number)));
      coord += ARITY[code] as number;
      commands.push([OPS[code], ...numbers] as unknown as PathCommand);
    }
    const [r, g, b, a] = packed.colors.subarray(index * 4, index * 4 + 4) as unknown as number[];
    paths.push({ color: { r: r as number, g: g as number, b: b as number, a: a as number }, commands });
  }
  return paths;
}

export function packedBuffers(packed: PackedPaths): ArrayBuffer[] {
  return [packed.colors, packed.commandCounts, packed.ops, packed.coords].map((array) => array.buffer as ArrayBuffer);
}
