import { CdpBrowser } from '../tests/browser/prefetch/cdp-tab';
import { startStorefront } from '../tests/browser/prefetch/storefront-server';
const sf = await startStorefront({ shopifyRules: false, scenario: 'instant.page', ttfbMs: (p) => (p.includes('next-') ? 450 : 100) });
const browser = await CdpBrowser.launch();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
for (const cc of ['private, max-age=0', 'private, no-cache', 'private, max-age=60', 'no-store']) {
  sf.config.htmlCacheControl = cc;
  const tab = await browser.newTab();
  const k = Math.random().toString(36).slice(2, 6);
  await tab.goto(sf.origin + `/collections/dbg-${k}`);
  await sleep(300);
  const { x, y } = await tab.centreOf('#bench-link');
  await tab.mouse('mouseMoved', x, y); await sleep(150);
  await tab.mouse('mousePressed', x, y); await sleep(90);
  await tab.mouse('mouseReleased', x, y);
  await sleep(1800);
  const target = `/products/next-dbg-${k}`;
  const shown: any = sf.beacons.find((b) => b.kind === 'shown' && b.path === target);
  const click: any = sf.beacons.find((b) => b.kind === 'click' && b.path === target);
  console.log(cc.padEnd(22), sf.requests.filter((r) => r.path === target).length, 'requests; click->shown', Math.round(shown.at - click.at));
  await tab.close();
}
await browser.close(); await sf.close();
