// The first screen of the admin rendered into its HTML document (issue 26: Largest Contentful Paint). On a
// phone the screen's text used to paint only once 140-240 KB of JavaScript had arrived over slow 4G and
// run. The Worker now renders the same React tree the admin's first render makes (admin/src/
// render-first-screen.tsx: the route, the session's settings and the screen's reads it answered for the
// document, the merchant's language) into `<div id="root">`, and the admin hydrates it (admin/src/main.tsx).
//
// - What the browser could render differently from the Worker is settled on both sides: the viewport is
//   guessed from the request (guessPhone) and written on the root, the session mode (embedded or not)
//   and whether the settings were used too; the admin hydrates only when its own state agrees and
//   otherwise renders afresh over the markup, as it did before. Dates are written in the request's time
//   zone (Cloudflare's), said on the root: the admin hydrates them in it, then writes them in the
//   browser's own one render later (admin/src/lib/intl.ts useTimeZone).
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
 * admin will not, and is dropped before it paints; the admin then renders as before. The same when the
 * navigation's history state holds what the render took as unset (`stateKeys`: a reload of a details
 * entry whose address does not name its item, made before the details links carried it). Inline, so it carries the document's nonce; the keys are JSON literals.
 */
export function rootGuardScript(nonce: string, flags: string[], stateKeys: string[] = []): string {
  if (!flags.length && !stateKeys.length) return '';
  return (
    `<script nonce="${nonce}">(function(r,k,s){function d(){r.removeAttribute('data-ssr');r.textContent=''}` +
    `try{var h=history.state;for(var j=0;j<s.length;j++)if(h&&h[s[j]]!=null)return d()}catch(e){}` +
    `try{for(var i=0;i<k.length;i++)if(sessionStorage.getItem(k[i]))return d()}catch(e){}})` +
    `(document.getElementById('root'),${scriptSafeJson(flags)},${scriptSafeJson(stateKeys)})</script>`
  );
}

/**
 * Runs first in <head>, when the Worker rendered another screen than the document's path (the set-up
 * wizard's rule: admin/src/shell/first-screen.ts firstScreenPath): the address becomes that screen's
 * before the head's inline script preloads the chunks of the screen at location.pathname (admin/build/
 * screen-preload.ts), so the phone fetches the code of the screen it shows, not of the one it leaves. The
 * admin would make the same move before its first render (main.tsx); one of `pathFlags` set in this tab
 * (the wizard already offered) keeps the address, as the admin does. Inline, so it carries the nonce.
 */
export function screenPathScript(nonce: string, screen: RenderedScreen, documentPath: string): string {
  if (screen.path === screenPath(documentPath)) return '';
  return (
    `<script nonce="${nonce}">(function(p,k){try{for(var i=0;i<k.length;i++)if(sessionStorage.getItem(k[i]))return}catch(e){}` +
    `history.replaceState(history.state,'',p+location.search+location.hash)})(${scriptSafeJson(screen.path)},` +
    `${scriptSafeJson(screen.pathFlags)})</script>`
  );
}

/**
 * Runs right after the rendered root (and its guard): a click or a submit on the Worker's markup before the
 * admin's tree is live (hydrated: app-root.tsx says `data-live` on the root) used to be lost, as the markup
 * answers nothing until then. They are held instead, their default prevented and no other listener run
 * (React's, attached at hydration, included: no double action), and replayed once the root says
 * `data-live`: a click as a click on the same element (same keys and button), a submit as requestSubmit(),
 * a select's change (the language selector) as its last chosen value set again with a change event (the
 * browser has changed the value already and hydration puts the rendered one back; a change cannot be
 * cancelled, only kept from React's listener).
 * Repeated clicks on one element while waiting (a merchant clicking again because nothing moved) count
 * once. An element the admin replaced (a part rendered afresh over the markup) is found again by its place
 * under the root, if the element there has the same tag and text; else its event is dropped. Angular's
 * event replay does the same for its hydration. Inline, so it carries the nonce; no listener is left once
 * the tree is live.
 */
export function eventReplayScript(nonce: string): string {
  return (
    `<script nonce="${nonce}">(function(r){if(!r||!r.hasAttribute('data-ssr')||!window.MutationObserver)return;` +
    `var q=[],t=['click','submit','change'];` +
    // where an element sits under the root: the index of each ancestor among its siblings
    `function at(e){var a=[];for(;e&&e!==r;e=e.parentElement){var i=0,s=e;while((s=s.previousElementSibling))i++;` +
    `a.unshift(i)}return a}` +
    `function h(e){var g=e.target;if(r.hasAttribute('data-live')||(e.type==='change'&&g.tagName!=='SELECT'))return;` +
    `e.preventDefault();e.stopImmediatePropagation();` +
    `var l=q[q.length-1];if(e.type==='click'&&l&&l.t==='click'&&l.e===g)return;` +
    `if(e.type==='change')q=q.filter(function(y){return y.t!=='change'||y.e!==g});` +
    `q.push({t:e.type,e:g,p:at(g),x:g.textContent,s:e.submitter,v:g.value,m:{bubbles:true,cancelable:true,composed:true,` +
    `view:window,detail:1,button:e.button,ctrlKey:e.ctrlKey,shiftKey:e.shiftKey,altKey:e.altKey,metaKey:e.metaKey,` +
    `clientX:e.clientX,clientY:e.clientY}})}` +
    `function find(x){if(x.e.isConnected&&r.contains(x.e))return x.e;var n=r;` +
    `for(var i=0;n&&i<x.p.length;i++)n=n.children[x.p[i]];` +
    `return n&&n!==r&&n.tagName===x.e.tagName&&n.textContent===x.x?n:null}` +
    `for(var i=0;i<t.length;i++)r.addEventListener(t[i],h,true);` +
    `var o=new MutationObserver(function(){if(!r.hasAttribute('data-live'))return;o.disconnect();` +
    `for(var i=0;i<t.length;i++)r.removeEventListener(t[i],h,true);var w=q;q=[];` +
    `for(var j=0;j<w.length;j++){var x=w[j],n=find(x);if(!n)continue;try{if(x.t==='click')n.dispatchEvent(new MouseEvent('click',x.m));` +
    `else if(x.t==='change'){n.value=x.v;n.dispatchEvent(new Event('change',{bubbles:true}))}` +
    `else if(n.requestSubmit)n.requestSubmit(x.s&&x.s.isConnected&&n.contains(x.s)?x.s:undefined)}catch(e){}}});` +
    `o.observe(r,{attributes:true,attributeFilter:['data-live']})})(document.getElementById('root'))</script>`
  );
}
