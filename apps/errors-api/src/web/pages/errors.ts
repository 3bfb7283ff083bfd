import { type ApiAnswer, apiError } from '../api.ts';
import { html } from '../html.ts';
import { page, type Viewer } from '../layout.ts';

/** A page the API refused: its status and message, and a way back. */
export function errorPage(viewer: Viewer | undefined, answer: ApiAnswer) {
  const title = answer.status === 404 ? 'Not found' : answer.status === 401 ? 'Sign in first' : 'Something went wrong';
  return page({
    title,
    viewer,
    body: html`<p class="problem" role="alert">${apiError(answer)}</p><p><a href="/projects">Back to the projects</a></p>`,
  });
}
