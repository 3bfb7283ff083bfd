import pkg from '../package.json' with { type: 'json' };

export const SERVICE = 'errors-api';
export const VERSION: string = pkg.version;
