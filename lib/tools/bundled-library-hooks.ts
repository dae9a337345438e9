/**
 * Module customization hooks (run on Node's loader thread), registered by
 * `redirectToBundledLibrary()` (bundled-library.ts) when `agentlib run` runs from its bundle: an
 * import that resolves to one of the bundle's public entries (`…/dist/lib/index.js`,
 * `…/dist/lib/core/index.js`, …) loads the entry's `tool-entry.js` instead, which re-exports the
 * bundle's instances. Everything else resolves as before.
 */

let redirects: Readonly<Record<string, string>> = {};

/** Receives the entry → tool entry map. */
export function initialize(data: { redirects: Readonly<Record<string, string>> }): void {
  redirects = data.redirects;
}

interface ResolveContext {
  parentURL?: string | undefined;
}

interface ResolveResult {
  url: string;
  format?: string | null | undefined;
  shortCircuit?: boolean | undefined;
}

/** Node's `resolve` hook. */
export async function resolve(specifier: string, context: ResolveContext, nextResolve: (specifier: string, context: ResolveContext) => Promise<ResolveResult>): Promise<ResolveResult> {
  const result = await nextResolve(specifier, context);
  const redirect = redirects[withoutQuery(result.url)];
  // A tool entry's own fallback import of its entry (not taken while the bundle runs) stays as it is.
  if (redirect === undefined || (context.parentURL !== undefined && withoutQuery(context.parentURL) === redirect)) return result;
  return { ...result, url: redirect };
}

/** A URL without its query and fragment (a loader such as tsx's adds a query). */
function withoutQuery(url: string): string {
  return url.replace(/[?#].*$/s, '');
}
