import type { IssueJson } from '../../issues/issue-json.ts';
import { barChart } from '../chart.ts';
import { ago, count } from '../format.ts';
import { html } from '../html.ts';
import { page, type Viewer } from '../layout.ts';
import type { ProjectJson } from './projects.ts';

export interface IssueListView {
  status: string;
  level: string;
  q: string;
  sort: string;
  page: number;
  perPage: number;
  total: number;
  issues: (IssueJson & { users: number })[];
  charts: Map<string, number[]>;
}

const STATUS_CHOICES = ['', 'unresolved', 'resolved', 'ignored'];
const LEVEL_CHOICES = ['', 'fatal', 'error', 'warning', 'info', 'debug'];
const SORT_CHOICES: [string, string][] = [
  ['last_seen', 'Last seen'],
  ['first_seen', 'First seen'],
  ['events', 'Events'],
  ['users', 'Users'],
];

function select(name: string, label: string, choices: [string, string][], current: string) {
  return html`<label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">${choices.map(
    ([value, text]) => html`<option value="${value}"${value === current ? html` selected` : ''}>${text}</option>`,
  )}</select>`;
}

export function issueRow(issue: IssueJson & { users?: number }, chart: number[] | undefined) {
  return html`<tr data-issue-id="${issue.id}">
<td class="title"><span class="level level-${issue.level}">${issue.level}</span>
<a href="/issues/${issue.id}">${issue.title}</a>${issue.culprit ? html`<div class="culprit">${issue.culprit}</div>` : ''}</td>
<td class="status" data-field="status"><span class="badge status-${issue.status}">${issue.status}</span></td>
<td class="num" data-field="count">${count(issue.count)}</td>
<td class="num">${count(issue.users ?? 0)}</td>
<td class="when" data-field="last_seen"><time datetime="${issue.last_seen}" title="${issue.last_seen}">${ago(issue.last_seen)}</time></td>
<td class="spark">${chart ? barChart(chart, 'Events per UTC day, last 14 days', { width: 84, height: 20 }) : ''}</td></tr>`;
}

export function issueListPage(viewer: Viewer, project: ProjectJson, view: IssueListView) {
  const pages = Math.max(1, Math.ceil(view.total / view.perPage));
  const link = (p: number) => {
    const params = new URLSearchParams({ status: view.status, level: view.level, q: view.q, sort: view.sort });
    params.set('page', String(p));
    return `/projects/${project.slug}/issues?${params}`;
  };
  return page({
    title: `${project.name}: issues`,
    viewer,
    live: { project: project.slug },
    trail: [{ href: '/projects', label: 'Projects' }],
    body: html`<p class="actions"><a href="/projects/${project.slug}/settings">Settings and DSN</a> · <a href="/projects/${project.slug}/rules">Alert rules</a></p>
<form method="get" class="filters" role="search">
${select(
  'status',
  'Status',
  STATUS_CHOICES.map((s) => [s, s || 'any']),
  view.status,
)}
${select(
  'level',
  'Level',
  LEVEL_CHOICES.map((l) => [l, l || 'any']),
  view.level,
)}
<label for="f-q">Search</label><input id="f-q" name="q" type="search" maxlength="200" value="${view.q}" placeholder="words, release:1.2.0, environment:prod, key:value" aria-describedby="f-q-help"><small id="f-q-help" class="sr">Words match title or culprit; key:value matches a tag such as release, environment or user.email, as in Sentry</small>
${select('sort', 'Sort by', SORT_CHOICES, view.sort)}
<button type="submit">Apply</button>
</form>
<p class="total"><span data-total>${count(view.total)}</span> issues</p>
<table class="list issues"><caption class="sr">Issues of ${project.name}</caption>
<thead><tr><th scope="col">Issue</th><th scope="col">Status</th><th scope="col">Events</th><th scope="col">Users</th><th scope="col">Last seen</th><th scope="col">14 days</th></tr></thead>
<tbody id="issue-rows">${
      view.issues.length
        ? view.issues.map((i) => issueRow(i, view.charts.get(i.id)))
        : html`<tr class="empty"><td colspan="6">No issues match.</td></tr>`
    }</tbody></table>
<nav class="pager" aria-label="Pages">${view.page > 1 ? html`<a rel="prev" href="${link(view.page - 1)}">Previous page</a>` : ''}
<span>Page ${view.page} of ${pages}</span>
${view.page < pages ? html`<a rel="next" href="${link(view.page + 1)}">Next page</a>` : ''}</nav>`,
  });
}
