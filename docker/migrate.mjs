// The migrate image's entry point: applies pending migrations of one app's database and exits.
// Usage: migrate.mjs memory-api|errors-api (DATABASE_URL names the database).
//        migrate.mjs memory-api-reembed: re-embeds stored memories with the configured model after a
//        change of embedding model (resumable; EMBEDDER / EMBEDDER_URL as memory-api gets them).
// Plain JavaScript: the image has Node and the bundled commands, no shell.
const COMMANDS = {
  'memory-api': '../apps/memory-api/dist/migrate.mjs',
  'errors-api': '../apps/errors-api/dist/migrate.mjs',
  'memory-api-reembed': '../apps/memory-api/dist/reembed.mjs',
};
const name = process.argv[2] ?? '';
const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
if (command === undefined) {
  console.error(
    `migrate: name the app whose database to migrate: memory-api or errors-api, or memory-api-reembed (got "${name}")`,
  );
  process.exit(64);
}
await import(new URL(command, import.meta.url).href);
