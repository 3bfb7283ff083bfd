import { ago } from '../format.ts';
import { html } from '../html.ts';
import { actionForm, page, problem, type Viewer } from '../layout.ts';

export interface ProjectJson {
  id: number;
  name: string;
  slug: string;
  dsn: string;
  archived_at: string | null;
  created_at: string;
}

export function projectsPage(viewer: Viewer, projects: ProjectJson[], error?: string) {
  const active = projects.filter((p) => !p.archived_at);
  const archived = projects.filter((p) => p.archived_at);
  const row = (p: ProjectJson) => html`<tr>
<td><a href="/projects/${p.slug}/issues">${p.name}</a></td><td><code>${p.slug}</code></td>
<td><time datetime="${p.created_at}" title="${p.created_at}">${ago(p.created_at)}</time></td>
<td><a href="/projects/${p.slug}/settings">Settings</a> · <a href="/projects/${p.slug}/rules">Alert rules</a></td></tr>`;
  return page({
    title: 'Projects',
    viewer,
    body: html`<table class="list"><caption class="sr">Active projects</caption>
<thead><tr><th scope="col">Project</th><th scope="col">Slug</th><th scope="col">Created</th><th scope="col">Manage</th></tr></thead>
<tbody>${active.length ? active.map(row) : html`<tr><td colspan="4">No active project.</td></tr>`}</tbody></table>
${archived.length ? html`<h2>Archived</h2><table class="list"><tbody>${archived.map(row)}</tbody></table>` : ''}
<h2>New project</h2>
${problem(error)}
${actionForm(
  viewer,
  '/projects',
  html`<label for="name">Name</label><input id="name" name="name" required maxlength="100">
<label for="slug">Slug (optional: letters, digits and dashes)</label><input id="slug" name="slug" maxlength="50">
<button type="submit">Create project</button>`,
  'card narrow',
)}`,
  });
}

function snippets(dsn: string) {
  return html`<h3>Node.js (<code>@sentry/node</code>)</h3>
<pre><code>import * as Sentry from '@sentry/node';

Sentry.init({ dsn: '${dsn}' });</code></pre>
<h3>Browser (<code>@sentry/browser</code>)</h3>
<pre><code>import * as Sentry from '@sentry/browser';

Sentry.init({ dsn: '${dsn}' });</code></pre>`;
}

export function projectSettingsPage(viewer: Viewer, project: ProjectJson, error?: string) {
  const archived = project.archived_at !== null;
  return page({
    title: `${project.name}: settings`,
    viewer,
    trail: [
      { href: '/projects', label: 'Projects' },
      { href: `/projects/${project.slug}/issues`, label: project.name },
    ],
    body: html`${problem(error)}
<section class="card"><h2>DSN</h2>
<p>SDKs send this project's errors to this address:</p>
<p class="dsn"><code id="dsn">${project.dsn}</code> <button type="button" class="copy" data-copy="#dsn">Copy</button></p>
${snippets(project.dsn)}
${actionForm(
  viewer,
  `/projects/${project.slug}/rotate-dsn`,
  html`<button type="submit" data-confirm="SDKs using the old DSN will be refused. Rotate the key?">Rotate key</button>`,
)}</section>
<section class="card"><h2>Name</h2>
${actionForm(
  viewer,
  `/projects/${project.slug}/rename`,
  html`<label for="name">Name</label><input id="name" name="name" required maxlength="100" value="${project.name}">
<button type="submit">Rename</button>`,
  'narrow',
)}</section>
<section class="card"><h2>${archived ? 'Archived' : 'Archive'}</h2>
${
  archived
    ? html`<p>Archived ${ago(project.archived_at as string)}: hidden from the main list, still taking events.</p>
${actionForm(viewer, `/projects/${project.slug}/unarchive`, html`<button type="submit">Unarchive</button>`)}
${actionForm(viewer, `/projects/${project.slug}/delete`, html`<button type="submit" class="danger" data-confirm="Delete this project, its issues, events and rules for good?">Delete for good</button>`)}`
    : html`<p>An archived project leaves the main list; it still takes events, and can be deleted for good.</p>${actionForm(viewer, `/projects/${project.slug}/archive`, html`<button type="submit" data-confirm="Archive this project?">Archive</button>`)}`
}</section>`,
  });
}
