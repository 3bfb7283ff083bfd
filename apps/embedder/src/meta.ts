import pkg from '../package.json' with { type: 'json' };

export const SERVICE = 'embedder';
export const VERSION: string = pkg.version;
