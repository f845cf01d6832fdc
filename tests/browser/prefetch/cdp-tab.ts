// A minimal Chrome DevTools Protocol driver that attaches through the TAB target. Chromium refuses to
// prerender while a DevTools session without tab-target support is attached
// (PrerenderingDisabledByDevTools), and playwright-core attaches that way, so speculation-rules
// prerendering can only be observed through a driver like this one. Used by the prerender browser
// test and by `npm run bench:prefetch`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

type Pending = { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void };
type EventHandler = (params: Record<string, unknown>, sessionId?: string) => void;

export class CdpBrowser {
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private handlers = new Map<string, Set<EventHandler>>();

  private constructor(
    private readonly process: ChildProcess,
    private readonly socket: WebSocket,
    private readonly profileDir: string,
  ) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as {
        id?: number;
        method?: string;
        params?: Record<string, unknown>;
        result?: Record<string, unknown>;
        error?: { message: string };
        sessionId?: string;
      };
      if (message.id !== undefined) {
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error.message));
        else waiter?.resolve(message.result ?? {});
      } else if (message.method) {
        for (const handler of this.handlers.get(message.method) ?? []) handler(message.params ?? {}, message.sessionId);
      }
    });
  }

  static async launch(extraArgs: string[] = []): Promise<CdpBrowser> {
    const profileDir = mkdtempSync(join(tmpdir(), 'cdp-tab-'));
    const child = spawn(
      CHROMIUM,
      [...CHROMIUM_ARGS, ...extraArgs, '--remote-debugging-port=0', `--user-data-dir=${profileDir}`, 'about:blank'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const wsUrl = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      const timer = setTimeout(() => reject(new Error(`chromium did not start: ${stderr}`)), 30_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.on('exit', (code) => reject(new Error(`chromium exited (${code}): ${stderr}`)));
    });
    const socket = new WebSocket(wsUrl);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve());
      socket.addEventListener('error', () => reject(new Error('CDP connection failed')));
    });
    const browser = new CdpBrowser(child, socket, profileDir);
    await browser.attachThroughTabs();
    return browser;
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  on(method: string, handler: EventHandler): () => void {
    const set = this.handlers.get(method) ?? new Set();
    set.add(handler);
    this.handlers.set(method, set);
    return () => set.delete(handler);
  }

  /** Page sessions as they attach: page target id -> {page session, tab target id}. */
  private pages = new Map<string, { session: string; tabTargetId: string }>();
  private pageWaiters = new Map<string, () => void>();

  /**
   * Attach to every tab target as it appears, and through each tab session to its pages: sessions
   * made this way have tab-target support, so Chromium keeps prerendering on.
   */
  private async attachThroughTabs(): Promise<void> {
    const tabs = new Map<string, string>(); // tab session -> tab target id
    this.on('Target.attachedToTarget', (params, parentSession) => {
      const info = params.targetInfo as { targetId: string; type: string; subtype?: string };
      const session = params.sessionId as string;
      if (!parentSession && info.type === 'tab') {
        tabs.set(session, info.targetId);
        void this.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, session).catch(
          () => {},
        );
      } else if (parentSession && tabs.has(parentSession) && info.type === 'page' && !info.subtype) {
        this.pages.set(info.targetId, { session, tabTargetId: tabs.get(parentSession) ?? '' });
        this.pageWaiters.get(info.targetId)?.();
      }
    });
    await this.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: true,
      filter: [{ type: 'tab' }],
    });
  }

  /** A new tab, attached through its tab target, with a session on its page. */
  async newTab(): Promise<CdpTab> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    if (!this.pages.has(targetId)) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the new page never attached')), 10_000);
        this.pageWaiters.set(targetId, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.pageWaiters.delete(targetId);
    }
    const page = this.pages.get(targetId);
    if (!page) throw new Error('the new page never attached');
    return new CdpTab(this, page.tabTargetId, targetId, page.session);
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => {
      if (this.process.exitCode !== null || this.process.signalCode !== null) resolve(null);
      else this.process.once('exit', resolve);
    });
    // Browser.close may never be answered (the browser is gone by then): do not wait for it.
    void this.send('Browser.close').catch(() => {});
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    this.socket.close();
    rmSync(this.profileDir, { recursive: true, force: true });
  }
}

export class CdpTab {
  constructor(
    readonly browser: CdpBrowser,
    /** The tab outlives its first page: a prerendered page that is activated replaces it. */
    readonly tabTargetId: string,
    readonly targetId: string,
    readonly session: string,
  ) {}

  send(method: string, params: Record<string, unknown> = {}) {
    return this.browser.send(method, params, this.session);
  }

  async goto(url: string): Promise<void> {
    await this.send('Page.enable');
    const loaded = new Promise<void>((resolve) => {
      const off = this.browser.on('Page.loadEventFired', (_params, sessionId) => {
        if (sessionId === this.session) {
          off();
          resolve();
        }
      });
    });
    await this.send('Page.navigate', { url });
    await loaded;
  }

  async evaluate<T>(expression: string): Promise<T> {
    const { result, exceptionDetails } = (await this.send('Runtime.evaluate', {
      expression,
      returnByValue: true,
      awaitPromise: true,
    })) as {
      result: { value: T };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (exceptionDetails) throw new Error(`evaluate failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  }

  /** Centre of the first element matching `selector`, in CSS pixels. */
  async centreOf(selector: string): Promise<{ x: number; y: number }> {
    const box = await this.evaluate<{ x: number; y: number } | null>(
      `(() => { const r = document.querySelector(${JSON.stringify(selector)})?.getBoundingClientRect(); return r ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null })()`,
    );
    if (!box) throw new Error(`no element ${selector}`);
    return box;
  }

  mouse(type: 'mouseMoved' | 'mousePressed' | 'mouseReleased', x: number, y: number) {
    return this.send('Input.dispatchMouseEvent', {
      type,
      x,
      y,
      button: type === 'mouseMoved' ? 'none' : 'left',
      buttons: type === 'mousePressed' ? 1 : 0,
      clickCount: type === 'mouseMoved' ? 0 : 1,
    });
  }

  /** Runs before any script of every document the tab loads (navigator overrides for tests). */
  addInitScript(source: string) {
    return this.send('Page.addScriptToEvaluateOnNewDocument', { source });
  }

  touch(type: 'touchStart' | 'touchCancel', x: number, y: number) {
    return this.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchCancel' ? [] : [{ x, y }] });
  }

  /** Collects uncaught exceptions of the tab's page, to prove a script never throws. */
  async collectExceptions(): Promise<string[]> {
    const errors: string[] = [];
    this.browser.on('Runtime.exceptionThrown', (params, sessionId) => {
      if (sessionId !== this.session) return;
      const details = params.exceptionDetails as { text?: string; exception?: { description?: string } };
      errors.push(details.exception?.description ?? details.text ?? 'exception');
    });
    await this.send('Runtime.enable');
    return errors;
  }

  async close() {
    await this.browser
      .send('Target.closeTarget', { targetId: this.tabTargetId })
      .catch(() => this.browser.send('Target.closeTarget', { targetId: this.targetId }));
  }
}
