import { type Html, html } from './html.ts';

export interface Viewer {
  name: string;
  email: string;
  /** The form token of this session (see csrf.ts). */
  csrf: string;
}

export interface PageOptions {
  title: string;
  viewer?: Viewer;
  body: Html;
  /** Breadcrumb links shown above the title, outermost first. */
  trail?: { href: string; label: string }[];
  /** What live updates this page follows; pages without it load no script for them. */
  live?: { project?: string; issue?: string };
}

/** A form that changes something: POST, with this session's token. */
export function actionForm(viewer: Viewer, action: string, body: Html, className = 'inline'): Html {
  return html`<form method="post" action="${action}" class="${className}">
<input type="hidden" name="_csrf" value="${viewer.csrf}">${body}</form>`;
}

export function page({ title, viewer, body, trail, live }: PageOptions): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Trove errors</title>
<link rel="stylesheet" href="/ui/assets/app.css">
<script src="/ui/assets/app.js" defer></script>
</head>
<body${live ? html` data-live-project="${live.project ?? ''}" data-live-issue="${live.issue ?? ''}"` : ''}>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/">Trove errors</a>
  ${
    viewer
      ? html`<nav aria-label="Main"><a href="/projects">Projects</a> <a href="/settings/tokens">Auth tokens</a></nav>
  <div class="who"><span>${viewer.name}</span>
  <form method="post" action="/logout"><input type="hidden" name="_csrf" value="${viewer.csrf}"><button class="link" type="submit">Sign out</button></form></div>`
      : ''
  }
</header>
<main id="main">
${trail?.length ? html`<nav class="trail" aria-label="Breadcrumb">${trail.map((t) => html`<a href="${t.href}">${t.label}</a> / `)}</nav>` : ''}
<h1>${title}</h1>
${body}
</main>
<p class="live-status" role="status" aria-live="polite" hidden></p>
</body>
</html>`;
}

/** A message above a form: what went wrong, in the API's own words. */
export const problem = (message: string | undefined) =>
  message ? html`<p class="problem" role="alert">${message}</p>` : '';
