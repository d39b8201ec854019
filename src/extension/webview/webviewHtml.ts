import { randomBytes } from 'node:crypto';

/** What one webview page is made of. Only `title` is text from outside, and it is escaped. */
export interface WebviewPage {
  title: string;
  /** The webview's own resource origin (`webview.cspSource`). */
  cspSource: string;
  nonce: string;
  /** Webview URIs (from `asWebviewUri`) of the page's script and style sheets under `media/`. */
  scriptUri: string;
  styleUris: readonly string[];
  /** Static markup of the page (a constant of the extension, never built from data). */
  body: string;
}

/** A fresh nonce for one page load: 128 random bits. */
export function createNonce(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The strict policy of every webview: nothing by default; scripts only with this load's nonce; style
 * sheets and fonts only from the extension's own files (no inline styles, no `unsafe-*`); no forms,
 * no frames, no base URL; and Trusted Types with no policy, so no HTML can ever be parsed from a string.
 */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
}

/** The HTML document of a webview page. */
export function webviewHtml(page: WebviewPage): string {
  if (!/^[A-Za-z0-9_-]{16,}$/.test(page.nonce)) throw new Error('A webview nonce must be at least 16 base64url characters.');
  const styles = page.styleUris.map((uri) => `<link rel="stylesheet" href="${escapeHtml(uri)}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(page.cspSource, page.nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeHtml(page.title)}</title>
  </head>
  <body>
${page.body}
    <script nonce="${page.nonce}" src="${escapeHtml(page.scriptUri)}"></script>
  </body>
</html>`;
}

/** Text made safe for HTML text and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
