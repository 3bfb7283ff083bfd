import { html } from '../html.ts';
import { page, problem } from '../layout.ts';

export function loginPage(formToken: string, error?: string, email = '', next = '/projects') {
  return page({
    title: 'Sign in',
    body: html`${problem(error)}
<form method="post" action="/login?next=${encodeURIComponent(next)}" class="card narrow">
<input type="hidden" name="_csrf" value="${formToken}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  });
}

export function setupPage(formToken: string, error?: string, values: { email?: string; name?: string } = {}) {
  return page({
    title: 'Set up Trove errors',
    body: html`<p>No one has an account yet. Create the first one: it becomes the administrator, and a project named
<em>Default</em> is made for your first errors.</p>
${problem(error)}
<form method="post" action="/setup" class="card narrow">
<input type="hidden" name="_csrf" value="${formToken}">
<label for="name">Your name</label>
<input id="name" name="name" required maxlength="100" value="${values.name ?? ''}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${values.email ?? ''}">
<label for="password">Password (at least 8 characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="8">
<button type="submit">Create the administrator</button>
</form>`,
  });
}
