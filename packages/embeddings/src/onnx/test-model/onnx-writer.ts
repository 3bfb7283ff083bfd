/**
 * Writes ONNX ModelProto bytes: just the protobuf fields a small inference graph needs (ONNX's
 * onnx.proto field numbers), so that tests and benchmarks can build a model with no Python.
 */

type Field = [field: number, value: Chunk];
type Chunk = { wire: 0; n: number } | { wire: 2 | 5; bytes: Uint8Array };

function varint(n: number): number[] {
  const out: number[] = [];
  // Negative int64 values are ten bytes of two's complement; the graphs here use -1 as an axis.
  let v = BigInt.asUintN(64, BigInt(n));
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

function message(fields: Field[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [field, chunk] of fields) {
    parts.push(Uint8Array.from(varint((field << 3) | chunk.wire)));
    if (chunk.wire === 0) parts.push(Uint8Array.from(varint(chunk.n)));
    else if (chunk.wire === 5) parts.push(chunk.bytes);
    else parts.push(Uint8Array.from(varint(chunk.bytes.length)), chunk.bytes);
  }
  return Buffer.concat(parts);
}

const int = (n: number): Chunk => ({ wire: 0, n });
const bytes = (b: Uint8Array): Chunk => ({ wire: 2, bytes: b });
const str = (s: string): Chunk => bytes(Buffer.from(s, 'utf8'));
const sub = (fields: Field[]): Chunk => bytes(message(fields));

export const FLOAT = 1;
export const INT64 = 7;

export interface Tensor {
  name: string;
  dims: number[];
  type: typeof FLOAT | typeof INT64;
  data: Float32Array | BigInt64Array;
}

function tensor(t: Tensor): Field[] {
  const raw = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  return [...t.dims.map((d): Field => [1, int(d)]), [2, int(t.type)], [8, str(t.name)], [9, bytes(raw)]];
}

export type Attribute =
  | { name: string; int: number }
  | { name: string; float: number }
  | { name: string; ints: number[] }
  | { name: string; tensor: Tensor };

function attribute(a: Attribute): Field[] {
  const head: Field = [1, str(a.name)];
  if ('int' in a) return [head, [3, int(a.int)], [20, int(2)]];
  if ('float' in a) {
    const f = Buffer.alloc(4);
    f.writeFloatLE(a.float);
    return [head, [2, { wire: 5, bytes: f }], [20, int(1)]];
  }
  if ('ints' in a) return [head, ...a.ints.map((n): Field => [8, int(n)]), [20, int(7)]];
  return [head, [5, sub(tensor(a.tensor))], [20, int(4)]];
}

export interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Attribute[];
}

/** A tensor input or output: element type and dimensions (a string names a symbolic dimension). */
export interface ValueInfo {
  name: string;
  type: typeof FLOAT | typeof INT64;
  shape: (number | string)[];
}

function valueInfo(v: ValueInfo): Field[] {
  const dims = v.shape.map((d): Field => [1, sub([typeof d === 'number' ? [1, int(d)] : [2, str(d)]])]);
  return [
    [1, str(v.name)],
    [
      2,
      sub([
        [
          1,
          sub([
            [1, int(v.type)],
            [2, sub(dims)],
          ]),
        ],
      ]),
    ],
  ];
}

export interface Graph {
  nodes: Node[];
  initializers: Tensor[];
  inputs: ValueInfo[];
  outputs: ValueInfo[];
}

/** A ModelProto at IR version 8, default domain opset 17. */
export function encodeModel(graph: Graph): Uint8Array {
  const nodes = graph.nodes.map(
    (n, i): Field => [
      1,
      sub([
        ...n.inputs.map((s): Field => [1, str(s)]),
        ...n.outputs.map((s): Field => [2, str(s)]),
        [3, str(`${n.op}_${i}`)],
        [4, str(n.op)],
        ...(n.attributes ?? []).map((a): Field => [5, sub(attribute(a))]),
      ]),
    ],
  );
  const g: Field[] = [
    ...nodes,
    [2, str('trove-test-bert')],
    ...graph.initializers.map((t): Field => [5, sub(tensor(t))]),
    ...graph.inputs.map((v): Field => [11, sub(valueInfo(v))]),
    ...graph.outputs.map((v): Field => [12, sub(valueInfo(v))]),
  ];
  return message([
    [1, int(8)],
    [2, str('trove')],
    [7, sub(g)],
    [
      8,
      sub([
        [1, str('')],
        [2, int(17)],
      ]),
    ],
  ]);
}
