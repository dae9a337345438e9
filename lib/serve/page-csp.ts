import { createHash } from 'node:crypto';

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The Content-Security-Policy of a self-contained page (the playgrounds): exactly its inline
 * script and style (by hash), requests to its own origin only (`connect-src 'self'`), no frames,
 * no form posts elsewhere, no base URL.
 */
export function inlinePageCsp(script: string, style: string): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers a playground page is served with (its CSP, no sniffing, no referrer, no caching). */
export function pageHeaders(csp: string): Record<string, string> {
  return { 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' };
}

/** A self-contained page and the Content-Security-Policy that pins its inline script and style. */
export interface InlinePage {
  html: string;
  csp: string;
}

/**
 * A self-contained HTML page: `title`, the inline `style`, `body` (trusted markup), the inline
 * `script` last; with the CSP of {@link inlinePageCsp} for exactly that script and style.
 */
export function inlinePage(parts: { title: string; style: string; body: string; script: string }): InlinePage {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title}</title>
<style>${parts.style}</style>
</head>
<body>
${parts.body}<script>${parts.script}</script>
</body>
</html>
`;
  return { html, csp: inlinePageCsp(parts.script, parts.style) };
}
