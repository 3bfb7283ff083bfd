import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../../tests/support/requirements.ts';
import { type Running, startErrorsApi } from '../support/harness.ts';
import { MinifiedApp, PAYMENTS_THROW_LINE } from '../support/minified-app.ts';
import { startReceiver } from '../support/receiver.ts';
import { sentryClient } from '../support/sentry.ts';
import { sentryCli, sentryCliRequirement } from '../support/sentry-cli.ts';
import { launchChromium } from './browser.ts';

const ADMIN = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
// Set to a folder to keep screenshots of the main pages (the README's come from here).
const SHOTS = process.env.DASHBOARD_SCREENSHOTS;

function checkoutFailure(): Error {
  // A real stack with frames in this file, so the issue page has in-app frames to show.
  try {
    JSON.parse('{"order": 42');
  } catch (cause) {
    return new Error('payment declined for order 42', { cause });
  }
  return new Error('unreachable');
}

describe.skipIf(missing('chromium'))('web dashboard in a real browser', () => {
  let server: Running;
  let browser: Browser;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const shot = async (name: string) => {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startErrorsApi({ WEBHOOK_ALLOWED_NETWORKS: 'loopback', WEBHOOK_TIMEOUT_MS: '2000' });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  it('sets up the first admin, creates a project and shows its DSN', async () => {
    await page.goto(server.url);
    expect(new URL(page.url()).pathname).toBe('/setup');
    await page.getByLabel('Your name').fill(ADMIN.name);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    // The browser refuses a short password itself; remove the attribute to see the server refuse it too.
    await page.locator('#password').evaluate((el) => el.removeAttribute('minlength'));
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    await expect.poll(() => page.locator('.problem').textContent()).toMatch(/password/);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    await page.waitForURL('**/projects/default/settings');

    await page.goto(`${server.url}/projects`);
    await page.getByLabel('Name', { exact: true }).fill('Checkout');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL('**/projects/checkout/settings');
    const dsn = (await page.locator('#dsn').textContent())?.trim() ?? '';
    expect(dsn).toMatch(/^http:\/\/[0-9a-f]{32}@127\.0\.0\.1:\d+\/\d+$/);
    expect(await page.locator('pre').first().textContent()).toContain(dsn);
    await shot('project-settings');
  });

  it('groups errors sent by @sentry/node, shows the stack trace, and reopens live after a resolve', async () => {
    await page.goto(`${server.url}/projects/checkout/settings`);
    const dsn = (await page.locator('#dsn').textContent())?.trim() ?? '';
    const sdk = sentryClient(dsn);
    sdk.scope.setUser({ id: 'u-7', email: 'buyer@example.com' });
    sdk.scope.setTag('region', 'eu-west');
    sdk.scope.addBreadcrumb({ category: 'cart', message: 'added item 42', level: 'info' });
    for (let i = 0; i < 3; i++) sdk.scope.captureException(checkoutFailure());
    sdk.scope.captureMessage('inventory sync slow', 'warning');
    await sdk.flush();
    expect(sdk.responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);

    await page.goto(`${server.url}/projects/checkout/issues`);
    const rows = page.locator('#issue-rows tr');
    await expect.poll(() => rows.count()).toBe(2);
    const failure = rows.filter({ hasText: 'payment declined' });
    expect(await failure.locator('[data-field="count"]').textContent()).toBe('3');
    // Three events of one user count one user; the message had the same user.
    expect(await failure.locator('td.num').nth(1).textContent()).toBe('1');
    await shot('issues');

    await failure.getByRole('link').click();
    await page.waitForURL('**/issues/*');
    expect(await page.locator('.exception h4').first().textContent()).toContain('Error: payment declined for order 42');
    // The cause comes second, and the frames of this file are marked as the app's own.
    expect(await page.locator('.exception h4').nth(1).textContent()).toMatch(/caused by.*SyntaxError/);
    expect(await page.locator('li.frame.in-app').count()).toBeGreaterThan(0);
    expect(await page.locator('li.frame.in-app').first().textContent()).toContain('checkoutFailure');
    const body = (await page.locator('main').textContent()) ?? '';
    for (const text of ['added item 42', 'region', 'eu-west', 'buyer@example.com', 'sentry.javascript.node']) {
      expect(body).toContain(text);
    }
    await shot('issue');

    await page.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => page.locator('[data-field="status"]').textContent()).toBe('resolved');
    await expect.poll(() => page.locator('body').getAttribute('data-live')).toBe('ready');

    sdk.scope.captureException(checkoutFailure());
    await sdk.flush();
    // No reload: the WebSocket update turns the badge back.
    await expect
      .poll(() => page.locator('[data-field="status"]').textContent(), { timeout: 10_000 })
      .toBe('unresolved');
    await expect.poll(() => page.locator('[data-field="count"]').textContent()).toBe('4');
  });

  it('shows a new issue on the issues page without a reload', async () => {
    await page.goto(`${server.url}/projects/checkout/issues`);
    await expect.poll(() => page.locator('body').getAttribute('data-live')).toBe('ready');
    await page.goto(`${server.url}/projects/checkout/settings`);
    const dsn = (await page.locator('#dsn').textContent())?.trim() ?? '';
    await page.goto(`${server.url}/projects/checkout/issues`);
    await expect.poll(() => page.locator('body').getAttribute('data-live')).toBe('ready');
    const sdk = sentryClient(dsn);
    sdk.scope.captureException(new TypeError('cannot read properties of undefined (reading "total")'));
    await sdk.flush();
    await expect
      .poll(() => page.locator('#issue-rows tr', { hasText: 'cannot read properties' }).count(), { timeout: 10_000 })
      .toBe(1);
  });

  it('filters and searches the issue list', async () => {
    await page.goto(`${server.url}/projects/checkout/issues?status=&level=warning`);
    expect(await page.locator('#issue-rows tr').count()).toBe(1);
    expect(await page.locator('#issue-rows').textContent()).toContain('inventory sync slow');
    await page.goto(`${server.url}/projects/checkout/issues?status=&q=ORDER%2042&sort=events`);
    expect(await page.locator('#issue-rows tr').count()).toBe(1);
    // The TypeError came from a client without a user: sorting by users puts it last.
    await page.goto(`${server.url}/projects/checkout/issues?status=&sort=users`);
    expect(await page.locator('#issue-rows tr').last().textContent()).toContain('cannot read properties');
  });

  it('fits a phone screen without sideways scrolling', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await phone.context().addCookies(await page.context().cookies());
    for (const path of ['/projects', '/projects/checkout/settings', '/projects/checkout/issues?status=']) {
      await phone.goto(`${server.url}${path}`);
      const [scroll, width] = (await phone.evaluate(
        '[document.documentElement.scrollWidth, window.innerWidth]',
      )) as number[];
      expect(scroll, path).toBeLessThanOrEqual(width as number);
    }
    if (SHOTS) await phone.screenshot({ path: `${SHOTS}/issues-phone.png`, fullPage: true });
    await phone.close();
  });

  it('creates, edits, tests, disables and deletes an alert rule', async () => {
    await page.goto(`${server.url}/projects/checkout/rules`);
    await page.getByRole('link', { name: 'New rule' }).click();
    await page.getByLabel('Name').fill('Page on errors');
    await page.getByLabel('error', { exact: true }).check();
    await page.getByLabel('Webhook URL').fill(`${receiver.url}/hook`);
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.waitForURL('**/projects/checkout/rules');
    const row = page.locator('tr', { hasText: 'Page on errors' });
    expect(await row.textContent()).toContain('level error');

    await row.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Cooldown per issue, seconds').fill('60');
    await page.getByLabel('Title contains (optional)').fill('payment');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.waitForURL('**/projects/checkout/rules');
    expect(await row.textContent()).toContain('title contains "payment"');
    expect(await row.textContent()).toContain('once per 60s');

    await row.getByRole('button', { name: 'Test webhook' }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toMatch(/succeeded: the webhook answered 200/);
    expect(receiver.received.at(-1)?.body).toMatchObject({ test: true, project: 'checkout' });
    await shot('rules');

    await row.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => row.textContent()).toContain('disabled');
    page.once('dialog', (dialog) => dialog.accept());
    await row.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('tr', { hasText: 'Page on errors' }).count()).toBe(0);
  });

  it('refuses a form without its token, and reads without JavaScript', async () => {
    const cookies = await page.context().cookies();
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const list = await fetch(`${server.url}/projects/checkout/issues?status=`, { headers: { cookie } });
    const html = await list.text();
    expect(list.status).toBe(200);
    const id = /href="\/issues\/([0-9a-f-]{36})"/.exec(html)?.[1] as string;
    const forged = await fetch(`${server.url}/issues/${id}/status`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'status=ignored&_csrf=forged',
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    const after = await fetch(`${server.url}/issues/${id}`, { headers: { cookie } });
    expect(await after.text()).not.toContain('badge status-ignored');

    const reader = await browser.newContext({ javaScriptEnabled: false });
    await reader.addCookies(cookies);
    const plain = await reader.newPage();
    await plain.goto(`${server.url}/issues/${id}`);
    expect(await plain.locator('h1').textContent()).toBeTruthy();
    expect(await plain.locator('section.card').count()).toBeGreaterThanOrEqual(3);
    await reader.close();
  });

  it.skipIf(missing(sentryCliRequirement))(
    'shows the original frame of a minified app whose maps sentry-cli uploaded, and the minified one on request',
    async () => {
      await page.goto(`${server.url}/projects`);
      await page.getByLabel('Name', { exact: true }).fill('Shop');
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.waitForURL('**/projects/shop/settings');
      const dsn = (await page.locator('#dsn').textContent())?.trim() ?? '';
      await page.getByRole('link', { name: 'Auth tokens' }).click();
      await page.getByLabel('Name').fill('CI uploads');
      await page.getByRole('button', { name: 'Create token' }).click();
      const token = (await page.locator('#new-token').textContent())?.trim() ?? '';
      expect(token).toMatch(/^[0-9a-f]{64}$/);

      const work = await mkdtemp(join(tmpdir(), 'errors-dashboard-maps-'));
      try {
        const app = new MinifiedApp(work);
        await app.bundle('dist');
        await sentryCli(['sourcemaps', 'inject', 'dist'], server.url, token, work, { project: 'shop' });
        await sentryCli(['sourcemaps', 'upload', 'dist'], server.url, token, work, { project: 'shop' });
        await app.run('dist', dsn);
      } finally {
        await rm(work, { recursive: true, force: true });
      }

      await page.goto(`${server.url}/projects/shop/issues`);
      const row = page.locator('#issue-rows tr', { hasText: 'payment gateway refused 4242' });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain('src/payments.ts in chargeCard');
      await row.getByRole('link').click();
      await page.waitForURL('**/issues/*');

      // The innermost frame as written: the TypeScript file, line and function, with its source.
      const exception = page.locator('.exception').first();
      const top = exception.locator('ol[data-frames="original"] > li.frame').first();
      expect(await top.getAttribute('class')).toContain('in-app');
      expect(await top.locator('.fn').textContent()).toBe('chargeCard');
      expect(await top.locator('.where').textContent()).toMatch(
        new RegExp(`^src/payments\\.ts:${PAYMENTS_THROW_LINE}:\\d+$`),
      );
      expect(await top.locator('tr.current').textContent()).toContain('throw new TypeError');

      // The minified frame as the SDK sent it: folded away until asked for.
      const minified = exception.locator('details.minified');
      const rawTop = minified.locator('li.frame').first();
      expect(await rawTop.isVisible()).toBe(false);
      await minified.getByText('Minified frames, as sent').click();
      await expect.poll(() => rawTop.isVisible()).toBe(true);
      expect(await rawTop.locator('.where').textContent()).toMatch(/dist\/app\.js:\d+:\d+$/);
      expect(await rawTop.locator('.fn').textContent()).not.toBe('chargeCard');
      await shot('issue-sourcemaps');
    },
  );
});
