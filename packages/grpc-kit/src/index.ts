export * from './client.ts';
export * from './context.ts';
export {
  type Codecs,
  type GenService,
  type GenServiceMethods,
  grpcServiceDefinition,
  type MessageCodec,
  methodPath,
} from './definition.ts';
export * from './run.ts';
export * from './server.ts';
