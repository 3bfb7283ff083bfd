/**
 * The onnx backend's webgpu device on a machine without a GPU: Mesa's lavapipe (Vulkan on the CPU,
 * Mesa 25 from bookworm-backports, unpacked by .ci/lavapipe.sh) under Dawn, the WebGPU
 * implementation inside onnxruntime-node. The vectors must equal the hand-computed reference.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { writeTestModel } from '../src/onnx/test-model/write-test-model.ts';
import { maxDiff, referenceHidden, referencePool, referenceTokens } from './onnx-reference.ts';

const LAVAPIPE = process.env.TROVE_LAVAPIPE_DIR ?? '/opt/trove-lavapipe';
const ICD = join(LAVAPIPE, 'usr/share/vulkan/icd.d/lvp_icd.json');
const lavapipe = {
  name: 'lavapipe',
  absent: () => (existsSync(ICD) ? undefined : `${ICD} does not exist`),
  install: 'bash .ci/lavapipe.sh (unpacks Mesa 25 lavapipe from bookworm-backports into TROVE_LAVAPIPE_DIR)',
};

describe.skipIf(missing(lavapipe))('onnx backend on webgpu (Dawn over lavapipe)', () => {
  it('answers the reference vectors to 1e-5', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trove-onnx-webgpu-'));
    try {
      const shape = await writeTestModel(dir);
      const texts = ['the red apple fell from the tree', 'Where is the staging database?'];
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', join(import.meta.dirname, 'onnx-webgpu-child.ts'), dir, ...texts],
        {
          encoding: 'utf8',
          timeout: 110_000,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            LD_LIBRARY_PATH: join(LAVAPIPE, 'usr/lib/x86_64-linux-gnu'),
            VK_ICD_FILENAMES: ICD,
          },
        },
      );
      const line = child.stdout.split('\n').find((l) => l.startsWith('{'));
      expect(line, `child said: ${child.stderr.slice(-2000)}`).toBeDefined();
      const { device, vectors } = JSON.parse(line as string) as { device: string; vectors: number[][] };
      expect(device).toBe('webgpu');
      texts.forEach((text, i) => {
        const expected = referencePool(referenceHidden(shape, referenceTokens(text), true), 'mean');
        expect(maxDiff(vectors[i] as number[], expected)).toBeLessThan(1e-5);
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
