import { ago } from '../format.ts';
import { html } from '../html.ts';
import { actionForm, page, problem, type Viewer } from '../layout.ts';

export interface TokenJson {
  id: string;
  name: string;
  token_last_characters: string;
  date_created: string;
  date_last_used: string | null;
}

/** Account settings: auth tokens for sentry-cli and CI. A new token is shown once, right after it is made. */
export function tokensPage(
  viewer: Viewer,
  tokens: TokenJson[],
  options: { organization: string; created?: string; error?: string },
) {
  const row = (t: TokenJson) => html`<tr>
<td>${t.name}</td><td><code>…${t.token_last_characters}</code></td>
<td><time datetime="${t.date_created}" title="${t.date_created}">${ago(t.date_created)}</time></td>
<td>${t.date_last_used ? html`<time datetime="${t.date_last_used}">${ago(t.date_last_used)}</time>` : 'never'}</td>
<td>${actionForm(viewer, `/settings/tokens/${t.id}/revoke`, html`<button type="submit" class="danger" data-confirm="Revoke the token ${t.name}? Whatever uses it stops working.">Revoke</button>`)}</td></tr>`;
  return page({
    title: 'Auth tokens',
    viewer,
    body: html`<p>Auth tokens let <code>sentry-cli</code> and CI upload source maps and call the API:
<code>sentry-cli --url &lt;this server&gt; --auth-token &lt;token&gt; --org ${options.organization} --project &lt;slug&gt; sourcemaps upload dist</code>.
Only a hash of each token is stored, so a token is shown once, when it is made.</p>
${
  options.created
    ? html`<div class="card" role="status"><p>Your new token (copy it now; it will not be shown again):</p>
<pre><code id="new-token">${options.created}</code></pre><button type="button" data-copy="#new-token">Copy</button></div>`
    : ''
}
<table class="list tokens"><caption class="sr">Your auth tokens</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Token</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Revoke</th></tr></thead>
<tbody>${tokens.length ? tokens.map(row) : html`<tr><td colspan="5">No auth token yet.</td></tr>`}</tbody></table>
<h2>New auth token</h2>
${problem(options.error)}
${actionForm(
  viewer,
  '/settings/tokens',
  html`<label for="token-name">Name</label><input id="token-name" name="name" required maxlength="100" placeholder="CI uploads">
<button type="submit">Create token</button>`,
  'card narrow',
)}`,
  });
}
