import pkg from '../package.json' with { type: 'json' };

export const SERVICE = 'memory-api';
export const VERSION: string = pkg.version;
