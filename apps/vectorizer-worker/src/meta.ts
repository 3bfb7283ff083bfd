import pkg from '../package.json' with { type: 'json' };

export const SERVICE = 'vectorizer-worker';
export const VERSION: string = pkg.version;
