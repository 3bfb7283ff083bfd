/**
 * The files of a newly initialised embedded cluster (before any schema), kept for the life of the
 * process. PGlite runs initdb for every new in-memory database, about 3 s of CPU; starting from a
 * copy of its result takes about 0.5 s. So the first in-memory database of a process keeps a copy
 * (40 MB, held once one exists) and later ones start from it. Directories on disk are created by
 * initdb as before: they are made once and kept.
 */
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';

let template: Uint8Array | undefined;

/** The kept cluster files, if any. */
export function clusterTemplate(): Uint8Array | undefined {
  return template;
}

/**
 * Keeps `files` (a `dumpDataDir('none')` tarball of a new cluster made by this PGlite) for later
 * in-memory databases. The first one kept stays; a test run seeds every worker with one file.
 */
export function keepClusterTemplate(files: Uint8Array): void {
  template ??= files;
}

/** A copy of the cluster's files, as `keepClusterTemplate` and `startFrom` take them. */
export async function copyCluster(db: PGlite): Promise<Uint8Array> {
  return new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
}

/** PGlite's options to start from `files` (a `copyCluster` copy) instead of running initdb. */
export function startFrom(files: Uint8Array | undefined): Pick<PGliteOptions, 'loadDataDir'> {
  return files ? { loadDataDir: new Blob([files]) } : {};
}
