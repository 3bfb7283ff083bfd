export * from './fingerprint.ts';
export * from './hostile.ts';
export * from './requests.ts';
export * from './run.ts';
export * from './schema-arbitrary.ts';
