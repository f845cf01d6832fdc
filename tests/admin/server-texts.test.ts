import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../admin/src/i18n';
import { get } from '../../admin/src/api/client';
import { failureText, okAnswer } from '../../admin/src/api/query';
import { english, msg } from '../../shared/messages';

// The Worker's English error texts (en.json's `server` part) are not in the first screen's JavaScript
// (issue 26): the transport, and okAnswer for the document's first reads, load them with the first answer
// that carries a keyed message, before anyone reads its text, so an error still shows in the merchant's
// language. This file's module state is its own (vitest runs each file in its own context), so the first
// test sees the texts missing.

const KEY = 'server.common.invalidValueFor';
const refusal = { ack: 0, message: english(KEY, { field: 'page_type' }), ...msg(KEY, { field: 'page_type' }) };

function answerWith(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })),
  );
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

/** The English `server` part is in i18next: a key of it that no other part hands over. */
const englishLoaded = () => i18next.exists('server.auth.invalidAdminToken', { lng: 'en', fallbackLng: false });

describe("the Worker's error texts", () => {
  it('are not loaded before an answer carries one; an answer without keys loads nothing', async () => {
    expect(englishLoaded()).toBe(false);
    answerWith(200, { ack: 1, message: 'ok', data: { name: 'message_key' } });
    await get('/api/plain');
    expect(englishLoaded()).toBe(false);
  });

  it('a refusal through the transport: they are there when it resolves', async () => {
    answerWith(400, refusal);
    const answer = get('/api/refused');
    expect(englishLoaded()).toBe(false);
    await answer;
    expect(englishLoaded()).toBe(true);
  });

  it("a refusal among the document's first reads (not through the transport): okAnswer loads them", async () => {
    // as before any answer: the texts out of i18next, and the admin's modules (their loading state) anew
    delete (i18next.store.data.en!.translation as Record<string, unknown>).server;
    vi.resetModules();
    const query = await import('../../admin/src/api/query');
    expect(englishLoaded()).toBe(false);
    const e = await query.okAnswer(Promise.resolve(refusal)).catch((x: unknown) => x);
    expect(englishLoaded()).toBe(true);
    expect(query.failureText(e, 'x')).toBe(refusal.message);
  });

  it('a refusal in another language: its text is there when the caller reads it, in the language shown', async () => {
    await i18next.changeLanguage('ge');
    answerWith(400, refusal);
    const e = await okAnswer(get('/api/refused')).catch((x: unknown) => x);
    expect(failureText(e, 'x')).toBe('Ungültiger Wert für page_type');
    await i18next.changeLanguage('en');
    // the English one too, from the catalogue (not the answer's message: another text proves it)
    i18next.addResource('en', 'translation', KEY, 'Bad value for {{field}}');
    expect(failureText(e, 'x')).toBe('Bad value for page_type');
    expect(englishLoaded()).toBe(true);
  });
});
