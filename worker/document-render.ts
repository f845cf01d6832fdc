// The first screen of the admin rendered into its HTML document (issue 26: Largest Contentful Paint). On a
// phone the screen's text used to paint only once 140-240 KB of JavaScript had arrived over slow 4G and
// run. The Worker now renders the same React tree the admin's first render makes (admin/src/
// render-first-screen.tsx: the route, the session's settings and the screen's reads it answered for the
// document, the merchant's language) into `<div id="root">`, and the admin hydrates it (admin/src/main.tsx).
//
// - What the browser could render differently from the Worker is settled on both sides: the viewport is
//   guessed from the request (guessPhone) and written on the root, the session mode (embedded or not)
//   and whether the settings were used too; the admin hydrates only when its own state agrees and
//   otherwise renders afresh over the markup, as it did before.
// - React escapes every text and attribute: a shop's text (a title, a name) is text in the markup.
// - A render that throws or declines leaves the root empty: the document is served as before and the
//   admin renders in the browser. The render is one synchronous pass after the reads, a few ms of CPU.
import type { FirstScreen } from '#admin-render';
import { documentCredential, scriptSafeJson } from './document-reads';
import { screenPath, type FirstReads } from '../shared/api/first-reads';

/**
 * A phone's viewport or a wide one, from the request: Chromium's low-entropy client hint (sent with every
 * request, also by Lighthouse's mobile emulation), else the user agent's "Mobi" token (Safari, Firefox).
 * A wrong guess costs one re-render of the shell's tabs and header once the page is hydrated.
 */
export function guessPhone(headers: Headers): boolean {
  const hint = headers.get('Sec-CH-UA-Mobile');
  if (hint) return hint.trim() === '?1';
  return /Mobi|iPhone|Android.+Mobile/i.test(headers.get('User-Agent') ?? '');
}

export type RenderedScreen = FirstScreen & { embedded: boolean; phone: boolean };

/** The document's first screen rendered, or null (not a rendered screen, declined, or failed). */
export async function renderDocumentScreen(
  url: URL,
  answers: FirstReads,
  headers: Headers,
  timeZone: string | null = null,
): Promise<RenderedScreen | null> {
  const { via, token } = documentCredential(url);
  const embedded = via === 'id_token';
  const phone = guessPhone(headers);
  try {
    // Loaded on the first document an isolate serves, not at its start: the API, the webhooks and the
    // queues never evaluate React, Polaris or the catalogues.
    const { renderFirstScreen } = await import('#admin-render');
    const screen = await renderFirstScreen({
      href: `${screenPath(url.pathname)}${url.search}`,
      embedded,
      authToken: via === 'authToken' ? token : null,
      phone,
      timeZone,
      reads: { ...answers.reads },
    });
    return screen && { ...screen, embedded, phone };
  } catch (e) {
    console.error('document render failed', url.pathname, e);
    return null;
  }
}

/** The root's attributes the admin reads before hydrating (admin/src/main.tsx serverMarkup). */
export function rootAttributes(screen: RenderedScreen): Record<string, string> {
  return {
    'data-ssr': screen.embedded ? 'embedded' : 'standalone',
    'data-ssr-phone': screen.phone ? '1' : '0',
    'data-ssr-settings': screen.settings ? '1' : '0',
    ...(screen.timeZone ? { 'data-ssr-tz': screen.timeZone } : {}),
  };
}

/**
 * Runs right after the rendered root, before the first paint. The Worker renders a tab session's first
 * visit: when this tab's session holds one of the flags the render took as unset (a banner the merchant
 * closed, the wizard already offered: admin/src/lib/session-flags.ts), the markup may show what the
 * admin will not, and is dropped before it paints; the admin then renders as before. Inline, so it
 * carries the document's nonce; the keys are written as a JSON string literal.
 */
export function rootGuardScript(nonce: string, flags: string[]): string {
  if (!flags.length) return '';
  return (
    `<script nonce="${nonce}">(function(r,k){try{for(var i=0;i<k.length;i++)if(sessionStorage.getItem(k[i])){` +
    `r.removeAttribute('data-ssr');r.textContent='';return}}catch(e){}})(document.getElementById('root'),` +
    `${scriptSafeJson(flags)})</script>`
  );
}
