// Configuration for the Prisma 6 CLI, used only to turn schema changes into migration SQL
// (`prisma migrate diff` between two schema files). Prisma 6 runs its schema engine as
// WebAssembly through a driver adapter, so it works offline; the adapter never connects for
// these commands. The app itself uses the Prisma 7 client.
import { defineConfig } from 'prisma6/config';
import { PrismaPg } from 'prisma6-adapter-pg';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  async adapter() {
    return new PrismaPg({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  },
});
