/**
 * Our sources find files beside themselves with `new URL('../x', import.meta.url)` (migrations,
 * .proto sources, web assets, models, worker entries). Bundled, every module would share the
 * bundle's URL; the plugin gives each of our modules its own source location instead (relative to
 * the bundle, so the image can live anywhere), and referencedFiles() lists what must be copied there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'esbuild';

const OURS = /\.(ts|mts|mjs|js)$/;

function loaderFor(path: string): 'ts' | 'js' {
  return /\.m?ts$/.test(path) ? 'ts' : 'js';
}

function posix(path: string): string {
  return path.split(sep).join('/');
}

export function metaUrlPlugin(root: string, outDir: string): Plugin {
  return {
    name: 'trove-source-urls',
    setup(build) {
      build.onLoad({ filter: OURS }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`) || !args.path.startsWith(root)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const own = `new URL(${JSON.stringify(posix(relative(outDir, args.path)))}, import.meta.url).href`;
        return { contents: text.split('import.meta.url').join(own), loader: loaderFor(args.path) };
      });
    },
  };
}

/** Files and folders (relative to root) that a source of ours reads through `new URL(..., import.meta.url)`. */
export function referencedFiles(root: string, file: string): string[] {
  if (file.includes(`${sep}node_modules${sep}`) || !file.startsWith(root) || !OURS.test(file)) return [];
  const found: string[] = [];
  const pattern = /new URL\(\s*(?:'([^']*)'|"([^"]*)"|`([^`$]*))/g;
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(pattern)) {
    const literal = match[1] ?? match[2] ?? match[3] ?? '';
    if (!literal.startsWith('.')) continue;
    const target = resolve(dirname(file), literal);
    // Worker entries are bundled in their place; sources are never shipped.
    if (basename(target) === 'worker-entry.mjs' || OURS.test(target) || target === root) continue;
    if (!target.startsWith(root) || !existsSync(target)) continue;
    found.push(posix(relative(root, target)));
  }
  return found;
}
