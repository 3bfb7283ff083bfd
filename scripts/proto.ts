/**
 * gRPC contracts: `generate` lints proto/ with buf and regenerates the committed TypeScript;
 * `check` (CI) lints, checks for breaking changes against the previous commit, and fails when the
 * committed code differs from what the sources generate.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const protoDir = join(root, 'proto');
const bin = join(root, 'node_modules', '.bin');
// protoc-gen-es is found by buf on PATH.
const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };

function buf(args: string[], cwd = protoDir): void {
  execFileSync(join(bin, 'buf'), args, { cwd, env, stdio: 'inherit' });
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

function lint(): void {
  buf(['lint']);
  buf(['format', '--diff', '--exit-code']);
}

function breaking(): void {
  const gitRoot = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: root, encoding: 'utf8' }).trim();
  const subdir = relative(gitRoot, protoDir);
  try {
    execFileSync('git', ['cat-file', '-e', `HEAD~1:${subdir}/buf.yaml`], { cwd: gitRoot, stdio: 'ignore' });
  } catch {
    console.log('buf breaking: the previous commit has no proto/ module; nothing to compare against');
    return;
  }
  buf(['breaking', '--against', `${join(gitRoot, '.git')}#ref=HEAD~1,subdir=${subdir}`]);
  console.log('buf breaking: no breaking change against the previous commit');
}

function checkFresh(): void {
  const scratch = mkdtempSync(join(tmpdir(), 'trove-proto-'));
  try {
    cpSync(protoDir, scratch, { recursive: true, filter: (src) => !src.includes('node_modules') });
    buf(['generate'], scratch);
    const committed = files(join(protoDir, 'gen')).map((path) => relative(protoDir, path));
    const fresh = files(join(scratch, 'gen')).map((path) => relative(scratch, path));
    const stale = [...new Set([...committed, ...fresh])].filter((path) => {
      try {
        return readFileSync(join(protoDir, path), 'utf8') !== readFileSync(join(scratch, path), 'utf8');
      } catch {
        return true;
      }
    });
    if (stale.length > 0) {
      console.error(`proto/gen is stale (run \`npm run proto\`): ${stale.join(', ')}`);
      process.exit(1);
    }
    console.log(`proto/gen matches the sources (${committed.length} files)`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const command = process.argv[2];
if (command === 'generate') {
  lint();
  buf(['generate']);
} else if (command === 'check') {
  lint();
  breaking();
  checkFresh();
} else {
  console.error('usage: tsx scripts/proto.ts generate|check');
  process.exit(64);
}
