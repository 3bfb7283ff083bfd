/**
 * Starts TensorFlow.js on the device the configuration asks for. tfjs keeps one active backend per
 * process; the embedder serves one model, so that is all it needs.
 *
 * - `webgpu`: @tensorflow/tfjs-backend-webgpu over the `webgpu` package (Dawn, which talks Vulkan
 *   to the GPU driver). Demanded: without a GPU adapter the model refuses to load.
 * - `wasm`, `cpu`: @tensorflow/tfjs-backend-wasm (WebAssembly with SIMD) and -cpu (plain JS), both
 *   installed from npm alone.
 * - `auto`: webgpu when an adapter answers, else FALLBACK_DEVICE (wasm), saying so in the log.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { TfjsDevice, TfjsDeviceSetting } from './devices.ts';

export type { TfjsDevice, TfjsDeviceSetting } from './devices.ts';

/**
 * Where `auto` runs without a GPU: on the shipped GloVe model, wasm ran 1.7-2.6x the texts per
 * second of cpu at batches of 32 to 512 and about the same at 1 and 8 (`npm run bench:tfjs -w
 * apps/embedder`).
 */
export const FALLBACK_DEVICE: TfjsDevice = 'wasm';

/** What the runtime tells the operator; pino's logger fits. */
export interface RuntimeLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface TfjsRuntime {
  tf: typeof tf;
  device: TfjsDevice;
  /** The GPU's description when device is webgpu. */
  adapter?: string;
}

// The banner tfjs prints in Node ("install tfjs-node") and its debug checks are not for servers.
tf.enableProdMode();

/**
 * The first GPU adapter Dawn finds, or why there is none. Node has no navigator.gpu: the webgpu
 * package supplies it, and the tfjs webgpu backend registers itself only when it is there at import.
 */
async function findGpu(): Promise<{ adapter?: string; reason?: string }> {
  let webgpu: typeof import('webgpu');
  try {
    webgpu = await import('webgpu');
  } catch (err) {
    return { reason: `the webgpu package could not be loaded: ${(err as Error).message}` };
  }
  Object.assign(globalThis, webgpu.globals);
  const gpu = webgpu.create([]);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) {
    return { reason: 'no GPU adapter (Dawn found no Vulkan driver or device: is libvulkan1 installed?)' };
  }
  const navigator = (globalThis as { navigator?: object }).navigator ?? {};
  Object.defineProperty(globalThis, 'navigator', {
    value: Object.assign(Object.create(navigator), { gpu }),
    configurable: true,
    writable: true,
  });
  await import('@tensorflow/tfjs-backend-webgpu');
  const info = adapter.info;
  const described = [info?.vendor, info?.architecture, info?.device, info?.description].filter(Boolean).join(' ');
  return { adapter: described || 'unnamed adapter' };
}

async function use(device: TfjsDevice): Promise<void> {
  if (device === 'wasm') await import('@tensorflow/tfjs-backend-wasm');
  if (device === 'cpu') await import('@tensorflow/tfjs-backend-cpu');
  if (!(await tf.setBackend(device))) throw new Error(`the tfjs ${device} backend did not start`);
  await tf.ready();
}

/**
 * Makes `setting` the active tfjs backend. `webgpu` without a GPU throws (the service must not
 * start on the wrong device when the configuration demands a GPU); `auto` falls back, logging why.
 */
export async function startTfjs(setting: TfjsDeviceSetting, log: RuntimeLog): Promise<TfjsRuntime> {
  if (setting === 'wasm' || setting === 'cpu') {
    await use(setting);
    return { tf, device: setting };
  }
  const { adapter, reason } = await findGpu();
  if (adapter) {
    await use('webgpu');
    log.info({ device: 'webgpu', adapter }, 'tfjs runs on the GPU');
    return { tf, device: 'webgpu', adapter };
  }
  if (setting === 'webgpu') {
    throw new Error(
      `TFJS_DEVICE=webgpu but ${reason}; run on a GPU node, or set TFJS_DEVICE=auto to fall back to ${FALLBACK_DEVICE}`,
    );
  }
  await use(FALLBACK_DEVICE);
  log.warn(
    { device: FALLBACK_DEVICE, reason },
    `no GPU for tfjs: ${reason}; running on ${FALLBACK_DEVICE} instead (set TFJS_DEVICE=webgpu to refuse to start without a GPU)`,
  );
  return { tf, device: FALLBACK_DEVICE };
}
