// PageSpeed Insights answers for Worker tests, served by msw at a fake PAGESPEED_ORIGIN, with every
// call recorded. Shapes follow real PSI v5 answers (lighthouseResult, or {error: {code, message}}).
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

export const PSI_ORIGIN = 'https://psi.test';

export type PsiCall = { url: string; strategy: string; category: string; key: string };
export type PsiReply = (call: PsiCall) => Response;

export const psiScore =
  (desktop: number, mobile: number): PsiReply =>
  (call) =>
    HttpResponse.json({
      kind: 'pagespeedonline#result',
      id: call.url,
      lighthouseResult: {
        requestedUrl: call.url,
        finalUrl: call.url,
        finalDisplayedUrl: call.url,
        configSettings: { emulatedFormFactor: call.strategy },
        categories: { performance: { id: 'performance', score: (call.strategy === 'desktop' ? desktop : mobile) / 100 } },
      },
    });

export const psiPasswordPage: PsiReply = (call) =>
  HttpResponse.json({
    lighthouseResult: {
      requestedUrl: call.url,
      finalUrl: new URL('/password', call.url).toString(),
      finalDisplayedUrl: new URL('/password', call.url).toString(),
      categories: { performance: { score: 0.98 } },
    },
  });

export const psiUnreachable: PsiReply = () => {
  const message =
    'Lighthouse returned error: FAILED_DOCUMENT_REQUEST. Lighthouse was unable to reliably load the page you requested. Make sure you are testing the correct URL and that the server is properly responding to all requests. (Details: net::ERR_CONNECTION_FAILED)';
  return HttpResponse.json(
    { error: { code: 500, message, errors: [{ message, domain: 'lighthouse', reason: 'lighthouseError' }] } },
    { status: 500 },
  );
};

export const psiRateLimited =
  (retryAfter?: number): PsiReply =>
  () =>
    HttpResponse.json(
      {
        error: {
          code: 429,
          message: "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute'",
          status: 'RESOURCE_EXHAUSTED',
        },
      },
      { status: 429, headers: retryAfter ? { 'Retry-After': String(retryAfter) } : {} },
    );

/** One msw server per test file; `reply` decides each answer, `calls` lists what the Worker asked. */
export function fakePsi() {
  const calls: PsiCall[] = [];
  let reply: PsiReply = psiScore(90, 50);
  const server = setupServer(
    http.get(`${PSI_ORIGIN}/pagespeedonline/v5/runPagespeed`, ({ request }) => {
      const q = new URL(request.url).searchParams;
      const call = {
        url: q.get('url') ?? '',
        strategy: q.get('strategy') ?? '',
        category: q.get('category') ?? '',
        key: q.get('key') ?? '',
      };
      calls.push(call);
      return reply(call);
    }),
  );
  return {
    server,
    calls,
    answer(next: PsiReply) {
      reply = next;
    },
    reset() {
      calls.length = 0;
      reply = psiScore(90, 50);
    },
  };
}
