/** The Helm template renderer (helm-render/main.go), built once with Debian's Go and sprig. */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GO = ['/usr/lib/go-1.19/bin/go', '/usr/lib/go/bin/go'].find(existsSync) ?? 'go';
const GOPATH = '/usr/share/gocode';

/** Why the renderer cannot be built here, or undefined when it can. */
export function rendererMissing(): string | undefined {
  if (!existsSync(join(GOPATH, 'src/github.com/Masterminds/sprig'))) {
    return 'Go and sprig (apt-get install golang-1.19 golang-github-masterminds-sprig-dev)';
  }
  if (spawnSync(GO, ['version']).status !== 0) return 'Go (apt-get install golang-1.19)';
  return undefined;
}

export function buildRenderer(): string {
  const dir = mkdtempSync(join(tmpdir(), 'helm-render-'));
  const bin = join(dir, 'helm-render');
  execFileSync(GO, ['build', '-o', bin, '.'], {
    cwd: join(import.meta.dirname, 'helm-render'),
    env: { ...process.env, GO111MODULE: 'off', GOPATH, GOCACHE: join(dir, 'cache'), GOFLAGS: '' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return bin;
}

export interface RenderResult {
  ok: boolean;
  output: string;
  error: string;
}

export function render(bin: string, chart: string, valueFiles: string[], apiVersions: string[] = []): RenderResult {
  const args = [...valueFiles.flatMap((f) => ['-f', f]), ...apiVersions.flatMap((v) => ['--api-versions', v]), chart];
  const run = spawnSync(bin, args, { encoding: 'utf8' });
  return { ok: run.status === 0, output: run.stdout, error: run.stderr.trim() };
}
