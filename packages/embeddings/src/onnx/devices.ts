import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { InferenceSession } from 'onnxruntime-node';

export const ONNX_DEVICES = ['cpu', 'webgpu', 'cuda', 'auto'] as const;
export type OnnxDevice = (typeof ONNX_DEVICES)[number];

/** The order `auto` tries: onnxruntime does not fall back by itself (['cuda','cpu'] just fails). */
export const AUTO_ORDER = ['cuda', 'webgpu', 'cpu'] as const;
export type ConcreteDevice = (typeof AUTO_ORDER)[number];

/**
 * CPUs this process may use: the cgroup's CPU quota (a container's `resources.limits.cpu`) when
 * there is one, else the CPUs it may run on. onnxruntime's default, one thread per core of the
 * machine, oversubscribes a limited container and was slower here even without a limit.
 */
export function cpuLimit(): number {
  const cpus = availableParallelism();
  try {
    const [quota, period] = readFileSync('/sys/fs/cgroup/cpu.max', 'utf8').trim().split(/\s+/);
    if (quota && quota !== 'max' && Number(period) > 0) {
      return Math.max(1, Math.min(cpus, Math.floor(Number(quota) / Number(period))));
    }
  } catch {
    // Not cgroup v2, or no limit file: the CPUs we may run on are the limit.
  }
  return cpus;
}

/** Session options for one device. */
export function sessionOptions(device: ConcreteDevice, threads: number): InferenceSession.SessionOptions {
  return {
    executionProviders: [device],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    // Warnings only: onnxruntime logs every node placement at the default level.
    logSeverityLevel: 3,
  };
}

/**
 * Runs `open` on each device in turn (just `device`, or cuda, webgpu, cpu for auto) and returns
 * the first that works; `log` hears each failure. When none works the error names every reason.
 */
export async function firstWorking<T>(
  device: OnnxDevice,
  open: (device: ConcreteDevice) => Promise<T>,
  log: (message: string) => void,
): Promise<{ value: T; device: ConcreteDevice }> {
  const order: readonly ConcreteDevice[] = device === 'auto' ? AUTO_ORDER : [device];
  const reasons: string[] = [];
  for (const candidate of order) {
    try {
      return { value: await open(candidate), device: candidate };
    } catch (err) {
      const reason = (err as Error).message.split('\n')[0] ?? String(err);
      reasons.push(`${candidate}: ${reason}`);
      if (device === 'auto') log(`onnx: device ${candidate} is not available (${reason}); trying the next one`);
    }
  }
  throw new Error(`no ONNX device could run the model (${reasons.join('; ')})`);
}
