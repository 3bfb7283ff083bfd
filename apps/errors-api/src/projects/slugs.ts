import { randomBytes } from 'node:crypto';

/** "My Web App!" → "my-web-app"; falls back to "project" for names with no letters or digits. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'project';
}

/** 32 lowercase hex characters: the only key shape every Sentry SDK accepts in a DSN. */
export const newDsnKey = () => randomBytes(16).toString('hex');
