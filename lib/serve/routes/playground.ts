import type { Context } from 'hono';
import { playgroundPage } from '../playground-html.js';
import { pageHeaders } from '../page-csp.js';
import type { ServeRuntime } from '../runtime.js';

/** `GET /playground`: the self-contained chat page, with a CSP that allows only its own origin. */
export function playgroundRoute(_runtime: ServeRuntime): (c: Context) => Response {
  return (c) => {
    const { html, csp } = playgroundPage();
    return c.html(html, 200, pageHeaders(csp));
  };
}
