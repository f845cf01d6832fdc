// App Bridge v4 is loaded async from Shopify's CDN (admin/index.html). Inside the admin iframe the shell
// waits briefly for it so the first calls carry a session token; outside the iframe, or when the script
// cannot load (local runs without network), the app goes on in standalone mode with the admin token.
export const APP_BRIDGE_WAIT_MS = 3000;

export const inIframe = () => typeof window !== 'undefined' && window.top !== window.self;

export function waitForAppBridge(timeoutMs = APP_BRIDGE_WAIT_MS): Promise<boolean> {
  const ready = () => typeof window.shopify?.idToken === 'function';
  if (!inIframe()) return Promise.resolve(false);
  if (ready()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const started = Date.now();
    const id = setInterval(() => {
      if (ready() || Date.now() - started >= timeoutMs) {
        clearInterval(id);
        resolve(ready());
      }
    }, 50);
  });
}

/** Opens a URL in the top frame when embedded (billing confirmation pages refuse to load in iframes). */
export function openTop(url: string): void {
  if (inIframe()) window.open(url, '_top');
  else window.location.assign(url);
}
