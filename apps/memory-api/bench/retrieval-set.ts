import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The labelled retrieval set in bench/retrieval-set/: memories by namespace, corrections, queries. */
const dir = fileURLToPath(new URL('./retrieval-set/', import.meta.url));
const lines = (file: string) =>
  readFileSync(dir + file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.split('|'));

export const NAMESPACES = ['work', 'home', 'travel', 'health'] as const;

export interface LabelledMemory {
  key: string;
  namespace: string;
  content: string;
}
export interface Correction {
  key: string;
  supersedes: string;
  namespace: string;
  content: string;
}
export interface LabelledQuery {
  category: 'single' | 'multi' | 'update' | 'temporal' | 'preference' | 'abstain';
  expected: string[];
  query: string;
}

export function loadRetrievalSet() {
  const namespaceOf = (key: string) => NAMESPACES[['w', 'h', 't', 'p'].indexOf(key[0] as string)] as string;
  const memories: LabelledMemory[] = NAMESPACES.flatMap((ns) =>
    lines(`${ns}.txt`).map(([key, content]) => ({ key: key as string, namespace: ns, content: content as string })),
  );
  const corrections: Correction[] = lines('updates.txt').map(([key, supersedes, content]) => ({
    key: key as string,
    supersedes: supersedes as string,
    namespace: namespaceOf(supersedes as string),
    content: content as string,
  }));
  const queries: LabelledQuery[] = lines('queries.txt').map(([category, expected, query]) => ({
    category: category as LabelledQuery['category'],
    expected: expected ? expected.split(',') : [],
    query: query as string,
  }));
  return { memories, corrections, queries };
}
