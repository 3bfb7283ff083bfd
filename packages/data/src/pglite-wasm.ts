/**
 * PGlite's WebAssembly (a 9 MB Postgres and its initdb), compiled once per process. PGlite keeps
 * what it compiles per JavaScript realm, so every database thread compiled it again: about 1 s of
 * CPU per new database, most of it V8 optimising the code in the background. A compiled module
 * passes to worker threads without copying or compiling again.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { PGliteOptions } from '@electric-sql/pglite';

// The project's TypeScript libraries declare WebAssembly's types but not the global object.
const wasmApi = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } })
  .WebAssembly;

let compiled: Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule'>> | undefined;

async function compile(file: string): Promise<WebAssembly.Module> {
  // The files sit beside the package's entry point, where PGlite itself reads them.
  const url = new URL(file, pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')));
  return wasmApi.compile(await readFile(url));
}

/** PGlite's options that hand it this process's compiled modules. */
export function pgliteWasm(): Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule'>> {
  if (!compiled) {
    compiled = Promise.all([compile('./pglite.wasm'), compile('./initdb.wasm')]).then(([pglite, initdb]) => ({
      pgliteWasmModule: pglite,
      initdbWasmModule: initdb,
    }));
    // A failed compile is tried again by the next caller, not remembered.
    compiled.catch(() => {
      compiled = undefined;
    });
  }
  return compiled;
}
