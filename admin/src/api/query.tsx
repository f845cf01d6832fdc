import {
  keepPreviousData,
  QueryClient,
  QueryClientProvider,
  useMutation,
  useQuery,
  useQueryClient,
  type Query,
  type QueryKey,
} from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isOk, type Envelope } from '../../../shared/api/envelope';
import { useToast } from '../hooks/use-toast';
import { documentAnswerOf } from './client';
import { errorText, serverTextsFor } from './error-text';

// The admin's one data layer (TanStack Query): reads are queries keyed by call and arguments (a newer
// key's answer wins, so no hand-made sequence counters), polling is `refetchInterval`, and writes are
// actions. Both unwrap the documented envelope once: a refused answer (ack 0 / code not '200') becomes a
// RefusedError carrying the envelope, and the error toast is shown here, in the merchant's language.

/**
 * Reads answered by the document (api/client.ts documentAnswerOf), with the answer's time: every reader
 * that mounts with the page takes that answer as it is (no second request for the same read at once).
 */
const fromDocument = new WeakMap<Query, number>();
/** How long a document's answer counts as just read for readers that mount after the first. */
export const DOCUMENT_ANSWER_FRESH_MS = 5000;

const justReadByDocument = (query: Query) =>
  fromDocument.get(query) === query.state.dataUpdatedAt && Date.now() - query.state.dataUpdatedAt < DOCUMENT_ANSWER_FRESH_MS;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // No silent retries or focus refetches: every call the admin makes is one the screen asked for.
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        staleTime: 0,
        refetchOnMount: (query) => !justReadByDocument(query),
      },
      mutations: { retry: false },
    },
  });
}

/** One query client per mounted app (each test render gets a fresh one). */
export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** A refused answer: the envelope, for the toast's translated message and for callers' own handling. */
export class RefusedError<E = unknown> extends Error {
  constructor(readonly body: E) {
    super(errorText(body, ''));
  }
}

/** The answer when it is a success, else a RefusedError. */
export async function okAnswer<E extends Envelope | Omit<Envelope, 'message'>>(answer: Promise<E>): Promise<E> {
  const body = await answer;
  if (isOk(body)) return body;
  // a refusal from the document's first reads has not been through the transport (client.ts)
  await serverTextsFor(body);
  throw new RefusedError(body);
}

/** The error toast's text: the server's message (translated from its key), the transport's, or the fallback. */
export function failureText(e: unknown, fallback: string): string {
  if (e instanceof RefusedError) return errorText(e.body, fallback);
  return e instanceof Error && e.message ? e.message : fallback;
}

type QueryOptions<E, T> = {
  key: QueryKey;
  call: () => Promise<E>;
  select: (body: E) => T;
  enabled?: boolean;
  /** Polling: the interval while it returns a number (the data decides when to stop). */
  refetchInterval?: number | false | ((data: T | undefined) => number | false);
  /** The toast when the read fails: its fallback text, or false for a silent read. */
  errorToast?: string | false;
  /** Keep the previous key's data on screen while the next key loads (paging, tabs, search). */
  keepPrevious?: boolean;
  /** Retries (none by default): whether to try again after `failures` failed reads, and how long to wait. */
  retry?: (failures: number, error: Error) => boolean;
  retryDelayMs?: number;
  /** An answer at most this old is taken as it is by a reader that mounts later (no second request). */
  reuseForMs?: number;
};

/** A read: the selected data, `loading` until the first answer (success or not), and `refetch`. */
export function useApiQuery<E extends object, T>(opts: QueryOptions<E, T>) {
  const { t } = useTranslation();
  const toast = useToast();
  const client = useQueryClient();
  // The document's answer for this read, in the cache before the first render: the screen's first render
  // (the Worker's and the browser's, issue 26) shows the data instead of a skeleton.
  useState(() => seedFromDocument(client, opts.key, opts.call));
  const interval = opts.refetchInterval;
  // select reads only the answer: kept stable so the selected data keeps its identity between renders.
  const selectLatest = useRef(opts.select);
  selectLatest.current = opts.select;
  const select = useCallback((body: E) => selectLatest.current(body), []);
  const q = useQuery({
    queryKey: opts.key,
    queryFn: () => okAnswer(opts.call() as Promise<Envelope>) as Promise<E>,
    select,
    enabled: opts.enabled ?? true,
    refetchInterval:
      typeof interval === 'function'
        ? (query) => interval(query.state.data === undefined ? undefined : select(query.state.data))
        : interval,
    placeholderData: opts.keepPrevious ? keepPreviousData : undefined,
    // Polling runs whether or not the tab has focus, like the screens' documented cadences.
    refetchIntervalInBackground: true,
    ...(opts.retry ? { retry: opts.retry, retryDelay: opts.retryDelayMs ?? 1000 } : {}),
    ...(opts.reuseForMs ? { staleTime: opts.reuseForMs } : {}),
  });
  const fallback = opts.errorToast === false ? null : (opts.errorToast ?? t('common.tryAgainLater'));
  useEffect(() => {
    if (q.error && fallback !== null) toast(failureText(q.error, fallback), { error: true });
    // Once per failed answer (errorUpdatedAt changes with each), not again when the toast or text change:
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the dependencies are chosen, see above
  }, [q.errorUpdatedAt]);
  // With keepPrevious, a failed read of the next key keeps the last rows on screen as well.
  const last = useRef<T | undefined>(undefined);
  if (q.data !== undefined) last.current = q.data;
  const data = opts.keepPrevious ? (q.data ?? last.current) : q.data;
  // loading: no answer yet for the key on screen (the previous key's data may still show).
  return {
    data,
    loading: q.isPending || q.isPlaceholderData,
    fetching: q.isFetching,
    error: q.error,
    updatedAt: q.dataUpdatedAt,
    refetch: q.refetch,
  };
}

function seedFromDocument<E>(client: QueryClient, key: QueryKey, call: () => Promise<E>): void {
  if (client.getQueryData(key) !== undefined) return;
  const body = documentAnswerOf(call, isOk);
  if (body === undefined) return;
  client.setQueryData(key, body);
  const query = client.getQueryCache().find({ queryKey: key, exact: true });
  if (query) fromDocument.set(query, query.state.dataUpdatedAt);
}

type ActionOptions<A extends unknown[], E> = {
  /** After a success, with the answer. */
  onSuccess?: (body: E, ...args: A) => unknown;
  /** A refusal the caller handles itself (e.g. the plan-limit dialog): return true and no toast shows. */
  onRefused?: (body: E, ...args: A) => boolean;
  /** After any failure (refused or not sent), before the toast. */
  onError?: (e: unknown, ...args: A) => void;
  /** After success or failure. */
  onSettled?: (...args: A) => void;
  /** The toast text when the server gives none; default 'Please try again later'. */
  fallback?: string;
  /** Toast the fallback even when the server says why (screens whose documented failure text is their own). */
  ownMessage?: boolean;
};

/**
 * A write: `run(...args)` sends the call and resolves the answer, or null after a failure (the error
 * toast shown unless onRefused took it). `pending` is true while it runs.
 */
export function useApiAction<A extends unknown[], E extends object>(
  call: (...args: A) => Promise<E>,
  opts: ActionOptions<A, E> = {},
) {
  const { t } = useTranslation();
  const toast = useToast();
  const latest = useRef(opts);
  latest.current = opts;
  const m = useMutation({ mutationFn: (args: A) => okAnswer(call(...args) as Promise<Envelope>) as Promise<E> });
  const { mutateAsync } = m;
  const run = useCallback(
    async (...args: A): Promise<E | null> => {
      const o = latest.current;
      try {
        const body = await mutateAsync(args);
        await o.onSuccess?.(body, ...args);
        return body;
      } catch (e) {
        const refused = e instanceof RefusedError ? (e.body as E) : null;
        if (!(refused && o.onRefused?.(refused, ...args))) {
          o.onError?.(e, ...args);
          const fallback = o.fallback ?? t('common.tryAgainLater');
          toast(o.ownMessage ? fallback : failureText(e, fallback), { error: true });
        }
        return null;
      } finally {
        o.onSettled?.(...args);
      }
    },
    [mutateAsync, t, toast],
  );
  return { run, pending: m.isPending };
}
