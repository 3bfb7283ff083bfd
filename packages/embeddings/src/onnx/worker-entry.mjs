// Registers tsx's loader inside this worker thread, then loads the TypeScript worker body.
import { register } from 'tsx/esm/api';

register();
await import('./onnx-worker.ts');
