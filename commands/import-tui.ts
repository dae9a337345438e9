/**
 * Imports a terminal-UI entry point: its bundle (`<entry>.bundle.js`, written next to the compiled
 * entry by scripts/bundle-tui.mjs: Ink, React and tui/ in one file, ~300 ms faster to load) when
 * it exists, else the entry module itself (running from the sources, or a build without bundles).
 * `entry` is the compiled entry's URL (`new URL('../tui/chat/run-chat.js', import.meta.url)`).
 * Any other failure to load the bundle is thrown, not hidden behind the fallback.
 */
export async function importTui(entry: URL): Promise<unknown> {
  const bundle = new URL(entry.href.replace(/\.js$/, '.bundle.js'));
  try {
    return (await import(bundle.href)) as unknown;
  } catch (error) {
    if (!isMissing(error, bundle)) throw error;
  }
  return (await import(entry.href)) as unknown;
}

/** Whether `error` says that `file` itself (not a module it imports) does not exist. */
function isMissing(error: unknown, file: URL): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, url, message } = error as { code?: unknown; url?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND') return false;
  // Node names the missing file in `url` (a file: URL) or in the message (a path).
  return url === file.href || (typeof message === 'string' && message.includes(decodeURIComponent(file.pathname)));
}
