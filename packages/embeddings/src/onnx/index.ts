/**
 * The onnx backend, imported only when configured (`@trove/embeddings/onnx`): onnxruntime's native
 * library is 46 MB that a GloVe deployment never needs to load.
 */
export { cpuLimit, ONNX_DEVICES, type OnnxDevice } from './devices.ts';
export { ModelDirError, POOLINGS, type Pooling } from './model-dir.ts';
export { OnnxEmbedder, type OnnxOptions } from './onnx-embedder.ts';
export { OnnxModel } from './onnx-model.ts';
export type { Prefixes } from './prefixes.ts';
