import pkg from '../package.json' with { type: 'json' };

export const SERVICE = 'vectorize-api';
export const VERSION: string = pkg.version;
