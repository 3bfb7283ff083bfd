export * from './client.ts';
export * from './context.ts';
export { type GenService, type GenServiceMethods, grpcServiceDefinition, methodPath } from './definition.ts';
export * from './run.ts';
export * from './server.ts';
