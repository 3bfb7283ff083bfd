import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const NODE_MODULES = fileURLToPath(new URL('../../../../node_modules', import.meta.url));

// A small TypeScript app: the error is thrown in chargeCard, three calls deep, in its own module.
export const PAYMENTS_TS = `export interface Card {
  number: string;
  cents: number;
}

export function chargeCard(card: Card): string {
  if (card.cents > 1000) {
    throw new TypeError(\`payment gateway refused \${card.number.slice(-4)}\`);
  }
  return 'ok';
}
`;
export const PAYMENTS_THROW_LINE = 8;
const appTs = (extra: string) => `import * as Sentry from '@sentry/node';
import { chargeCard } from './payments';

Sentry.init({ dsn: process.env.DSN, release: process.env.RELEASE, defaultIntegrations: false,
  integrations: [Sentry.onUncaughtExceptionIntegration()] });
${extra}
function checkout(total: number) {
  return chargeCard({ number: '4242424242424242', cents: total });
}
checkout(5000);
`;

/**
 * The app's sources in `work/src`, bundled and minified by esbuild into `work/<out>/app.js` with a
 * source map, and run under the real @sentry/node, whose uncaught-exception handler reports it.
 */
export class MinifiedApp {
  constructor(readonly work: string) {}

  /** Bundles and minifies the app into `out`; `extra` code changes the minified names and positions. */
  async bundle(out: string, extra = ''): Promise<void> {
    await mkdir(join(this.work, 'src'), { recursive: true });
    await writeFile(join(this.work, 'src/payments.ts'), PAYMENTS_TS);
    await writeFile(join(this.work, 'src/app.ts'), appTs(extra));
    await build({
      entryPoints: [join(this.work, 'src/app.ts')],
      outfile: join(this.work, out, 'app.js'),
      bundle: true,
      minify: true,
      sourcemap: true,
      platform: 'node',
      format: 'cjs',
      external: ['@sentry/node'],
      logLevel: 'silent',
    });
  }

  /** Runs the built app; it throws, the SDK sends the error, and the process exits 1 (else this rejects). */
  async run(out: string, dsn: string, release?: string): Promise<void> {
    const result = await promisify(execFile)(process.execPath, [join(this.work, out, 'app.js')], {
      env: { PATH: process.env.PATH, NODE_PATH: NODE_MODULES, DSN: dsn, ...(release && { RELEASE: release }) },
    }).catch((err: { code?: number; stderr?: string }) => err);
    const code = (result as { code?: number }).code;
    if (code !== 1) throw new Error(`the app exited ${code}: ${(result as { stderr?: string }).stderr}`);
  }
}
