/** tfjs devices, apart from the runtime so that reading the config does not load TensorFlow.js. */
export const TFJS_DEVICES = ['auto', 'webgpu', 'wasm', 'cpu'] as const;
export type TfjsDeviceSetting = (typeof TFJS_DEVICES)[number];
export type TfjsDevice = Exclude<TfjsDeviceSetting, 'auto'>;
