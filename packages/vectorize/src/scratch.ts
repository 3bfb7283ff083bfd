/**
 * Typed arrays reused from one trace to the next, by name. Tracing allocated some thirty arrays a
 * call (per pixel and per cluster): on a photo that is tens of megabytes of fresh, zeroed memory
 * whose page faults and "external memory" garbage collections cost more than some stages, and on a
 * 16-pixel icon the allocations were much of the time.
 *
 * Tracing is synchronous, so one call at a time uses the pool of its thread. An array comes back
 * with whatever the last call left in it: callers initialise what they read. The pool keeps at most
 * MAX_POOLED_BYTES; arrays for larger images are allocated fresh and left to the collector.
 */
const MAX_POOLED_BYTES = 96 << 20;

const pool = new Map<string, Int32Array | Float64Array>();
let pooledBytes = 0;

function take<T extends Int32Array | Float64Array>(
  name: string,
  length: number,
  make: (length: number) => T,
  bytesPerElement: number,
): T {
  const have = pool.get(name) as T | undefined;
  if (have && have.length >= length) return have.length === length ? have : (have.subarray(0, length) as T);
  // Room to grow by half again, so images of slowly rising sizes do not reallocate every time.
  const size = Math.max(length, Math.ceil((have?.length ?? 0) * 1.5));
  const released = have ? have.byteLength : 0;
  if (pooledBytes - released + size * bytesPerElement > MAX_POOLED_BYTES) return make(length);
  const fresh = make(size);
  pool.set(name, fresh);
  pooledBytes += fresh.byteLength - released;
  return size === length ? fresh : (fresh.subarray(0, length) as T);
}

/** A reused Int32Array of `length` elements with unspecified contents. */
export function int32Scratch(name: string, length: number): Int32Array {
  return take(name, length, (n) => new Int32Array(n), 4);
}

/** A reused Float64Array of `length` elements with unspecified contents. */
export function float64Scratch(name: string, length: number): Float64Array {
  return take(name, length, (n) => new Float64Array(n), 8);
}
