/** Regenerates every generated source file: the Prisma client of each database. */
import { DATABASES, type DatabaseName, prisma7, schemaPath } from './prisma-tools.ts';

for (const db of Object.keys(DATABASES) as DatabaseName[]) {
  await prisma7(['generate', '--schema', schemaPath(db)]);
  console.log(`generated the Prisma client of ${db} into apps/${DATABASES[db].app}/src/generated/prisma`);
}
