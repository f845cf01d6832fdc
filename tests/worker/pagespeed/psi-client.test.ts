import { describe, expect, it } from 'vitest';
import { retryDelaySeconds } from '../../../worker/pagespeed/check-consumer';
import { classifyPsiResponse, psiRequestUrl } from '../../../worker/pagespeed/psi-client';

const lighthouse = (overrides: Record<string, unknown> = {}) => ({
  lighthouseResult: {
    requestedUrl: 'https://shop.example/',
    finalUrl: 'https://shop.example/',
    finalDisplayedUrl: 'https://shop.example/',
    categories: { performance: { score: 0.874 } },
    ...overrides,
  },
});
const psiError = (code: number, message: string) => ({
  error: { code, message, errors: [{ message, domain: 'lighthouse', reason: 'lighthouseUserError' }] },
});

describe('psiRequestUrl', () => {
  it('asks PSI v5 for the performance category of one strategy, with the key', () => {
    const url = new URL(psiRequestUrl('https://www.googleapis.com', 'k3y', 'https://shop.example/', 'mobile'));
    expect(url.origin + url.pathname).toBe('https://www.googleapis.com/pagespeedonline/v5/runPagespeed');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      url: 'https://shop.example/',
      strategy: 'mobile',
      category: 'performance',
      key: 'k3y',
    });
  });
});

describe('classifyPsiResponse', () => {
  it('turns the performance score into 0-100', () => {
    expect(classifyPsiResponse(200, lighthouse(), null)).toEqual({ kind: 'score', score: 87, finalUrl: 'https://shop.example/' });
  });
  it('recognises a storefront that redirected to its password page', () => {
    const body = lighthouse({ finalUrl: 'https://shop.example/password', finalDisplayedUrl: 'https://shop.example/password' });
    expect(classifyPsiResponse(200, body, null).kind).toBe('password_protected');
    expect(classifyPsiResponse(200, lighthouse({ finalDisplayedUrl: 'https://shop.example/fr/password' }), null).kind).toBe(
      'password_protected',
    );
    expect(
      classifyPsiResponse(200, lighthouse({ finalDisplayedUrl: 'https://shop.example/pages/password-tips' }), null).kind,
    ).toBe('score');
    expect(
      classifyPsiResponse(500, psiError(500, 'Lighthouse returned error: ERRORED_DOCUMENT_REQUEST. (Status code: 401)'), null)
        .kind,
    ).toBe('password_protected');
  });
  it('recognises an unreachable store from Lighthouse’s error codes', () => {
    const failed = psiError(
      400,
      'Lighthouse returned error: FAILED_DOCUMENT_REQUEST. Lighthouse was unable to reliably load the page you requested. (Details: net::ERR_CONNECTION_FAILED)',
    );
    expect(classifyPsiResponse(400, failed, null).kind).toBe('unreachable');
    expect(classifyPsiResponse(500, psiError(500, 'Lighthouse returned error: DNS_FAILURE.'), null).kind).toBe('unreachable');
    expect(
      classifyPsiResponse(200, lighthouse({ runtimeError: { code: 'NO_FCP', message: 'The page did not paint' } }), null).kind,
    ).toBe('unreachable');
  });
  it('reads 429 as rate limited, with Retry-After when given', () => {
    expect(classifyPsiResponse(429, psiError(429, 'Quota exceeded'), '120')).toEqual({
      kind: 'rate_limited',
      retryAfterSeconds: 120,
      detail: 'Quota exceeded',
    });
    expect(classifyPsiResponse(429, null, null)).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: null });
  });
  it('retries server errors and answers without a score, and gives up on a rejected request', () => {
    expect(classifyPsiResponse(503, null, null).kind).toBe('temporary');
    expect(classifyPsiResponse(500, psiError(500, 'Internal error encountered.'), null).kind).toBe('temporary');
    expect(classifyPsiResponse(200, lighthouse({ categories: { performance: { score: null } } }), null).kind).toBe('temporary');
    // A whole-number "score" (81 instead of 0.81) is malformed: never shown as 8,100.
    expect(classifyPsiResponse(200, lighthouse({ categories: { performance: { score: 81 } } }), null).kind).toBe('temporary');
    expect(classifyPsiResponse(400, psiError(400, 'API key not valid. Please pass a valid API key.'), null).kind).toBe(
      'rejected',
    );
  });
});

describe('retryDelaySeconds', () => {
  it('doubles from 30 s, honours Retry-After, caps at 15 minutes', () => {
    const noJitter = () => 0;
    expect([1, 2, 3].map((attempt) => retryDelaySeconds(attempt, null, noJitter))).toEqual([30, 60, 120]);
    expect(retryDelaySeconds(1, 300, noJitter)).toBe(300);
    expect(retryDelaySeconds(12, null, noJitter)).toBe(900);
    expect(retryDelaySeconds(1, null, () => 0.99)).toBe(39);
  });
});
