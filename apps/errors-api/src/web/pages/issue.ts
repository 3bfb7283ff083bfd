import { barChart } from '../chart.ts';
import { ago, count, utc } from '../format.ts';
import { html } from '../html.ts';
import { actionForm, page, type Viewer } from '../layout.ts';
import { eventView } from './event.ts';

export interface IssueView {
  id: string;
  project: string;
  title: string;
  culprit: string | null;
  level: string;
  status: string;
  count: number;
  first_seen: string;
  last_seen: string;
  users: number;
}

export interface EventSummary {
  event_id: string;
  level: string;
  title: string;
  received_at: string;
}

export interface IssuePageData {
  issue: IssueView;
  projectName: string;
  chart: number[];
  events: EventSummary[];
  eventsTotal: number;
  eventsPage: number;
  perPage: number;
  /** The event shown in full: the one asked for, else the latest. */
  shown: { event_id: string; payload: unknown } | null;
}

const ACTIONS: Record<string, [string, string][]> = {
  unresolved: [
    ['resolved', 'Resolve'],
    ['ignored', 'Ignore'],
  ],
  resolved: [['unresolved', 'Reopen']],
  ignored: [['unresolved', 'Stop ignoring']],
};

export function issuePage(viewer: Viewer, data: IssuePageData) {
  const { issue } = data;
  const pages = Math.max(1, Math.ceil(data.eventsTotal / data.perPage));
  const eventLink = (e: string, p = data.eventsPage) => `/issues/${issue.id}?event=${e}&page=${p}`;
  return page({
    title: issue.title,
    viewer,
    live: { project: issue.project, issue: issue.id },
    trail: [
      { href: '/projects', label: 'Projects' },
      { href: `/projects/${issue.project}/issues`, label: data.projectName },
    ],
    body: html`<div class="issue-head">
${issue.culprit ? html`<p class="culprit">${issue.culprit}</p>` : ''}
<dl class="facts">
<div><dt>Status</dt><dd data-field="status"><span class="badge status-${issue.status}">${issue.status}</span></dd></div>
<div><dt>Level</dt><dd><span class="level level-${issue.level}">${issue.level}</span></dd></div>
<div><dt>Events</dt><dd data-field="count">${count(issue.count)}</dd></div>
<div><dt>Users</dt><dd>${count(issue.users)}</dd></div>
<div><dt>First seen</dt><dd><time datetime="${issue.first_seen}" title="${issue.first_seen}">${ago(issue.first_seen)}</time></dd></div>
<div><dt>Last seen</dt><dd data-field="last_seen"><time datetime="${issue.last_seen}" title="${issue.last_seen}">${ago(issue.last_seen)}</time></dd></div>
</dl>
<div class="status-actions">${(ACTIONS[issue.status] ?? []).map(([status, label]) =>
      actionForm(
        viewer,
        `/issues/${issue.id}/status`,
        html`<input type="hidden" name="status" value="${status}"><button type="submit">${label}</button>`,
      ),
    )}</div>
</div>
<section class="card"><h2>Events over the last 30 days</h2>${barChart(data.chart, 'Events per day, last 30 days', { width: 600, height: 60 })}</section>
<section class="card"><h2>${data.shown ? html`Event <code>${data.shown.event_id}</code>` : 'No event stored'}</h2>
${data.shown ? eventView(data.shown.payload) : ''}</section>
<section class="card"><h2>Events</h2>
<table class="list"><thead><tr><th scope="col">Event</th><th scope="col">Level</th><th scope="col">Received</th></tr></thead>
<tbody>${data.events.map(
      (e) =>
        html`<tr${e.event_id === data.shown?.event_id ? html` aria-current="true"` : ''}><td><a href="${eventLink(e.event_id)}"><code>${e.event_id.slice(0, 12)}</code></a> ${e.title}</td><td>${e.level}</td><td><time datetime="${e.received_at}">${utc(e.received_at)}</time></td></tr>`,
    )}</tbody></table>
<nav class="pager" aria-label="Event pages">${data.eventsPage > 1 ? html`<a rel="prev" href="/issues/${issue.id}?page=${data.eventsPage - 1}">Previous page</a>` : ''}
<span>Page ${data.eventsPage} of ${pages}</span>
${data.eventsPage < pages ? html`<a rel="next" href="/issues/${issue.id}?page=${data.eventsPage + 1}">Next page</a>` : ''}</nav></section>`,
  });
}
