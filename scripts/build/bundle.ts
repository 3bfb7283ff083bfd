/**
 * Builds what one service's image holds, under OUT/<app> laid out as /app in the image:
 *   apps/<app>/dist/*.mjs     its entry points bundled by esbuild (no tsx, no TypeScript at run time)
 *   <dir>/worker-entry.mjs    each worker thread body its code starts, bundled where the code looks
 *   node_modules/             only the packages left out of the bundle (native modules, WebAssembly,
 *                             files read beside their code) and what they depend on
 *   the files the code reads beside itself (migrations, .proto sources, web assets, models)
 *
 * Usage: tsx scripts/build/bundle.ts OUT [app...]   (every app when none is named)
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { copyPackages, externalPackages } from './packages.ts';
import { metaUrlPlugin, referencedFiles } from './source-files.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Each image's entry points (relative to its app folder): the server, and the commands its image runs. */
export const APPS: Record<string, string[]> = {
  'memory-api': ['src/server.ts', 'src/migrate.ts', 'src/reembed.ts'],
  'errors-api': ['src/server.ts', 'src/migrate.ts'],
  'vectorize-api': ['src/server.ts'],
  'vectorizer-worker': ['src/server.ts'],
  embedder: ['src/server.ts'],
};

/**
 * Packages an image leaves out although its code can load them, each with what to do instead: the
 * bundle imports a stand-in that throws this message, so the setting that loads one stops the start
 * saying so, instead of Node's "Cannot find package". memory-api's onnx backend (EMBEDDER=onnx)
 * loads onnxruntime-node (46 MB) only when configured: in a cluster models run in the embedder
 * service, once per embedder pod (on GPU nodes where there are some), not once per memory-api replica.
 */
const LEAVE_OUT: Record<string, Record<string, string>> = {
  'memory-api': {
    'onnxruntime-node':
      'EMBEDDER=onnx: the memory-api image leaves out onnxruntime-node; transformer models run in the embedder ' +
      'service. Set EMBEDDER_BACKEND=onnx (and ONNX_MODEL_DIR) on the embedder and EMBEDDER_URL=dns:///<embedder>:50051 ' +
      'here (the chart and compose.yaml set EMBEDDER_URL already), or EMBEDDER=glove; from the sources (npm start) ' +
      'EMBEDDER=onnx runs in process',
  },
};

/** Resolves each left-out package to a module that throws its message when something imports it. */
function leftOutPlugin(leaveOut: Record<string, string>): Plugin {
  const names = Object.keys(leaveOut);
  return {
    name: 'trove-left-out',
    setup(b) {
      if (names.length === 0) return;
      const filter = new RegExp(`^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(/.*)?$`);
      b.onResolve({ filter }, (args) => ({ path: filter.exec(args.path)?.[1] as string, namespace: 'trove-left-out' }));
      // CommonJS, so that any named import of it bundles; it throws before anything is read from it.
      b.onLoad({ filter: /.*/, namespace: 'trove-left-out' }, (args) => ({
        contents: `module.exports = {};\nthrow new Error(${JSON.stringify(leaveOut[args.path])});`,
        loader: 'js',
      }));
    },
  };
}

// Lets bundled CommonJS call require() and read __dirname/__filename in an ES module.
const BANNER = [
  "import { createRequire as __troveCreateRequire } from 'node:module';",
  "import { fileURLToPath as __troveFileURLToPath } from 'node:url';",
  'const require = __troveCreateRequire(import.meta.url);',
  'const __filename = __troveFileURLToPath(import.meta.url);',
  "const __dirname = __troveFileURLToPath(new URL('.', import.meta.url));",
].join('\n');

async function bundle(
  entryPoints: string[],
  out: { dir?: string; file?: string },
  external: string[],
  leaveOut: Record<string, string>,
) {
  const outDir = out.dir ?? dirname(out.file as string);
  const result = await build({
    entryPoints,
    // Input paths in the metafile are relative to this, whichever folder the command runs in.
    absWorkingDir: ROOT,
    ...(out.dir ? { outdir: out.dir, splitting: true, chunkNames: '[name]-[hash]' } : { outfile: out.file }),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: external.filter((name) => !(name in leaveOut)).flatMap((name) => [name, `${name}/*`]),
    plugins: [leftOutPlugin(leaveOut), metaUrlPlugin(ROOT, outDir)],
    banner: { js: BANNER },
    // Smaller and quicker to parse; names kept, so that error types and stack traces stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
    legalComments: 'eof',
  });
  return result.metafile;
}

/** The worker bodies a bundle starts: a `worker-entry.mjs` beside an input that names it. */
function workers(metafile: Metafile): { body: string; entry: string }[] {
  const found = new Map<string, string>();
  for (const input of Object.keys(metafile.inputs)) {
    if (input.includes('node_modules')) continue;
    const file = resolve(ROOT, input);
    const entry = join(dirname(file), 'worker-entry.mjs');
    if (!existsSync(entry) || !readFileSync(file, 'utf8').includes('worker-entry.mjs')) continue;
    const body = /import\('(\.\/[^']+\.ts)'\)/.exec(readFileSync(entry, 'utf8'))?.[1];
    if (!body) throw new Error(`${relative(ROOT, entry)}: no import('./<body>.ts') found`);
    found.set(entry, resolve(dirname(entry), body));
  }
  return [...found].map(([entry, body]) => ({ entry, body }));
}

/** The packages the bundles import at run time (left out of them), by name. */
function importedPackages(...metafiles: Metafile[]): string[] {
  const names = new Set<string>();
  for (const metafile of metafiles) {
    for (const output of Object.values(metafile.outputs)) {
      for (const { path, external } of output.imports) {
        if (!external || path.startsWith('node:') || path.startsWith('.') || path.startsWith('/')) continue;
        const parts = path.split('/');
        const name = path.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
        if (!builtinModules.includes(name)) names.add(name);
      }
    }
  }
  return [...names].sort();
}

/**
 * `forTests`: bundles that the test suite starts as processes instead of the TypeScript sources
 * (tests/support/bundles.ts). Nothing is left out (tests start every setting) and no package is
 * copied: OUT lies inside this repository, so the left-out packages resolve from its node_modules.
 */
export async function bundleApp(app: string, outRoot: string, { forTests = false } = {}): Promise<void> {
  const entries = APPS[app];
  if (!entries) throw new Error(`unknown app "${app}" (known: ${Object.keys(APPS).join(', ')})`);
  const appDir = join(ROOT, 'apps', app);
  const out = join(outRoot, app);
  rmSync(out, { recursive: true, force: true });
  const external = externalPackages(appDir);
  const leaveOut = forTests ? {} : (LEAVE_OUT[app] ?? {});
  const inputs: Metafile['inputs'] = {};
  const metas: Metafile[] = [];
  const main = await bundle(
    entries.map((entry) => join(appDir, entry)),
    { dir: join(out, 'apps', app, 'dist') },
    external,
    leaveOut,
  );
  Object.assign(inputs, main.inputs);
  for (const { entry, body } of workers(main)) {
    const meta = await bundle([body], { file: join(out, relative(ROOT, entry)) }, external, leaveOut);
    Object.assign(inputs, meta.inputs);
    metas.push(meta);
  }
  const imported = importedPackages(main, ...metas);
  const used = new Set<string>();
  for (const input of Object.keys(inputs)) {
    for (const file of referencedFiles(ROOT, resolve(ROOT, input))) used.add(file);
  }
  for (const file of used) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    cpSync(join(ROOT, file), join(out, file), {
      recursive: true,
      filter: (source) => !/\.(ts|mts|tsbuildinfo)$/.test(source) || source.endsWith('.d.ts'),
    });
  }
  if (forTests) return;
  const copied = copyPackages(appDir, imported, join(out, 'node_modules'));
  for (const name of Object.keys(leaveOut)) console.log(`${app}: left out ${name} (a stand-in that says why)`);
  console.log(
    `${app}: ${entries.length} entries, ${workers(main).length} worker(s), files ${[...used].join(' ') || 'none'}; ` +
      `node_modules: ${copied.join(' ') || 'none'}`,
  );
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  const [outRoot, ...apps] = process.argv.slice(2);
  if (!outRoot) {
    console.error('usage: tsx scripts/build/bundle.ts OUT [app...]');
    process.exit(64);
  }
  for (const app of apps.length > 0 ? apps : Object.keys(APPS)) await bundleApp(app, resolve(outRoot));
}
