/**
 * Which npm packages a service's bundle leaves out, and copying those (with what they depend on)
 * into its image. Left out: anything with a native module or WebAssembly file of its own, and
 * the few that load files or threads from their own folder at run time. Everything else is bundled.
 */
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

// Load code or data from their own folder at run time: sharp its platform package, pino and
// pino-pretty a transport thread (LOG_FORMAT=pretty), pdfkit its font metrics, swagger-ui its pages.
const ALWAYS_EXTERNAL = new Set(['sharp', 'pino', 'pino-pretty', 'pdfkit', '@fastify/swagger-ui']);
// Carry .wasm files the generated client never loads (it imports the base64 module instead).
const ALWAYS_BUNDLED = new Set(['@prisma/client']);
// Files no process reads: type declarations, source maps, docs; other systems' prebuilt binaries.
const DROP_FILE = /\.(d\.ts|d\.mts|d\.cts|map|md|markdown)$/i;
const DROP_PLATFORM = /[/\\](darwin|win32|linux-arm64|linux[/\\]arm64|darwin-universal|win32-x64|win32-arm64)([/\\]|$)/;

export interface Manifest {
  name: string;
  version?: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** Node's lookup: the nearest node_modules/<name> from `from` upwards, as a real path. */
export function packageDir(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Native modules, WebAssembly or .proto files of its own (read by path at run time), or code that
 * finds files beside itself from import.meta.url (css-tree's and csso's JSON through createRequire).
 */
function readsOwnFiles(dir: string): boolean {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && readsOwnFiles(path)) return true;
    } else if (/\.(node|wasm|proto)$/.test(entry.name) || entry.name === 'binding.gyp') {
      return true;
    } else if (/\.(m?js|cjs)$/.test(entry.name)) {
      const text = readFileSync(path, 'utf8');
      if (text.includes('import.meta.url') && /createRequire|readFile/.test(text)) return true;
    }
  }
  return false;
}

/** What a package needs at run time: optional peers only when something else asks for them; no types. */
function dependencyNames(pkg: Manifest): string[] {
  const peers = Object.keys(pkg.peerDependencies ?? {}).filter((name) => !pkg.peerDependenciesMeta?.[name]?.optional);
  return [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {}), ...peers].filter(
    (name) => !name.startsWith('@types/'),
  );
}

/** Every npm package in the app's production dependencies (through our workspaces), with its folder. */
export function productionPackages(appDir: string): Map<string, string> {
  const found = new Map<string, string>();
  const seenWorkspaces = new Set<string>();
  const visit = (dir: string) => {
    for (const name of dependencyNames(manifest(dir))) {
      const location = packageDir(name, dir);
      if (!location) continue; // an optional or peer dependency not installed
      if (!location.includes(`${sep}node_modules${sep}`)) {
        if (!seenWorkspaces.has(location)) {
          seenWorkspaces.add(location);
          visit(location);
        }
      } else if (!found.has(name)) {
        found.set(name, location);
        visit(location);
      }
    }
  };
  seenWorkspaces.add(appDir);
  visit(appDir);
  return found;
}

export function externalPackages(appDir: string): string[] {
  const external: string[] = [];
  for (const [name, dir] of productionPackages(appDir)) {
    if (ALWAYS_BUNDLED.has(name)) continue;
    if (ALWAYS_EXTERNAL.has(name) || readsOwnFiles(dir)) external.push(name);
  }
  return external.sort();
}

/** Copies the external packages and their dependencies to outModules; returns their names. */
export function copyPackages(appDir: string, external: string[], outModules: string): string[] {
  const copied = new Map<string, string>();
  const seen = new Set<string>();
  const pending: [string, string][] = external.map((name) => [name, appDir]);
  while (pending.length > 0) {
    const [name, from] = pending.pop() as [string, string];
    const dir = packageDir(name, from);
    if (!dir || seen.has(dir)) continue;
    seen.add(dir);
    pending.push(...dependencyNames(manifest(dir)).map((dep): [string, string] => [dep, dir]));
    // A package inside another's node_modules travels inside its parent's folder.
    if (isNested(dir)) continue;
    const previous = copied.get(name);
    if (previous !== undefined) throw new Error(`${name}: two versions needed (${previous} and ${dir})`);
    copied.set(name, dir);
    cpSync(dir, join(outModules, name), {
      recursive: true,
      dereference: true,
      filter: (source) => !DROP_FILE.test(source) && !DROP_PLATFORM.test(relative(dir, source)),
    });
  }
  rmSync(join(outModules, '.bin'), { recursive: true, force: true });
  return [...copied.keys()].sort();
}

/** A package inside another package's node_modules (copied with its parent). */
function isNested(dir: string): boolean {
  return dir.split(`${sep}node_modules${sep}`).length > 2;
}
