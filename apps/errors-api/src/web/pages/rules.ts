import { html } from '../html.ts';
import { actionForm, page, problem, type Viewer } from '../layout.ts';
import type { ProjectJson } from './projects.ts';

export interface RuleJson {
  id: string;
  name: string;
  conditions: { level?: string | string[]; min_count?: number; title_contains?: string; new_issue?: boolean };
  action_config: { url?: string };
  cooldown_seconds: number;
  enabled: boolean;
}

const LEVELS = ['fatal', 'error', 'warning', 'info', 'debug'];

function describe(c: RuleJson['conditions']): string {
  const parts: string[] = [];
  if (c.level !== undefined) parts.push(`level ${[c.level].flat().join(' or ')}`);
  if (c.min_count !== undefined) parts.push(`at least ${c.min_count} events`);
  if (c.title_contains !== undefined) parts.push(`title contains "${c.title_contains}"`);
  if (c.new_issue) parts.push('new or reopened issue');
  return parts.length ? parts.join(', ') : 'every event';
}

export function rulesPage(viewer: Viewer, project: ProjectJson, rules: RuleJson[], notice?: string, error?: string) {
  return page({
    title: `${project.name}: alert rules`,
    viewer,
    trail: [
      { href: '/projects', label: 'Projects' },
      { href: `/projects/${project.slug}/issues`, label: project.name },
    ],
    body: html`${problem(error)}${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<p><a class="button" href="/projects/${project.slug}/rules/new">New rule</a></p>
<table class="list"><thead><tr><th scope="col">Rule</th><th scope="col">When</th><th scope="col">Webhook</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead>
<tbody>${
      rules.length
        ? rules.map(
            (
              r,
            ) => html`<tr data-rule-id="${r.id}"><td>${r.name}</td><td>${describe(r.conditions)}; at most once per ${r.cooldown_seconds}s per issue</td>
<td><code>${r.action_config.url ?? ''}</code></td><td>${r.enabled ? 'enabled' : 'disabled'}</td>
<td class="row-actions"><a href="/rules/${r.id}/edit">Edit</a>
${actionForm(viewer, `/rules/${r.id}/toggle`, html`<button type="submit">${r.enabled ? 'Disable' : 'Enable'}</button>`)}
${actionForm(viewer, `/rules/${r.id}/test`, html`<button type="submit">Test webhook</button>`)}
${actionForm(viewer, `/rules/${r.id}/delete`, html`<button type="submit" class="danger" data-confirm="Delete this rule?">Delete</button>`)}</td></tr>`,
          )
        : html`<tr><td colspan="5">No alert rules yet.</td></tr>`
    }</tbody></table>`,
  });
}

/** The form for a new rule (`rule` undefined) or an existing one; `draft` refills it after a refusal. */
export function ruleFormPage(
  viewer: Viewer,
  project: ProjectJson,
  existing: RuleJson | undefined,
  error?: string,
  draft?: RuleJson,
) {
  const rule = draft ?? existing;
  const c = rule?.conditions ?? {};
  const levels = [c.level ?? []].flat();
  const action = existing ? `/rules/${existing.id}/edit` : `/projects/${project.slug}/rules`;
  return page({
    title: existing ? `Edit rule: ${existing.name}` : 'New alert rule',
    viewer,
    trail: [
      { href: '/projects', label: 'Projects' },
      { href: `/projects/${project.slug}/rules`, label: `${project.name}: alert rules` },
    ],
    body: html`${problem(error)}
${actionForm(
  viewer,
  action,
  html`<label for="r-name">Name</label><input id="r-name" name="name" required maxlength="100" value="${rule?.name ?? ''}">
<fieldset><legend>Levels (none: any level)</legend>${LEVELS.map(
    (l) =>
      html`<label class="check"><input type="checkbox" name="level" value="${l}"${levels.includes(l) ? html` checked` : ''}> ${l}</label>`,
  )}</fieldset>
<label for="r-min">At least this many events in the issue (optional)</label><input id="r-min" name="min_count" type="number" min="1" value="${c.min_count ?? ''}">
<label for="r-title">Title contains (optional)</label><input id="r-title" name="title_contains" maxlength="200" value="${c.title_contains ?? ''}">
<label class="check"><input type="checkbox" name="new_issue" value="true"${c.new_issue ? html` checked` : ''}> Only new or reopened issues</label>
<label for="r-url">Webhook URL</label><input id="r-url" name="url" type="url" required maxlength="2048" value="${rule?.action_config.url ?? ''}">
<label for="r-cool">Cooldown per issue, seconds</label><input id="r-cool" name="cooldown_seconds" type="number" min="0" max="604800" value="${rule?.cooldown_seconds ?? 300}">
<label class="check"><input type="checkbox" name="enabled" value="true"${rule === undefined || rule.enabled ? html` checked` : ''}> Enabled</label>
<button type="submit">${existing ? 'Save rule' : 'Create rule'}</button>`,
  'card narrow',
)}`,
  });
}
