// Relay connections with Shopify's rules: first or last is required (except inside bulk operations,
// which read everything), at most 250 per page, cursors from the item id.
import { GraphQLError } from 'graphql';
import { decodeCursor, encodeCursor } from './ids';
import type { Ctx } from './context';

export type PageArgs = {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  reverse?: boolean | null;
};

const MAX_PAGE = 250;

export function connection<T extends { id: number }>(
  ctx: Ctx,
  items: T[],
  args: PageArgs,
  view: (item: T) => Record<string, unknown>,
) {
  const { first, last, after, before } = args;
  if (!ctx.bulk) {
    if (first == null && last == null)
      throw new GraphQLError('you must provide one of first or last', { extensions: { code: 'BAD_REQUEST' } });
    if ((first ?? 0) > MAX_PAGE || (last ?? 0) > MAX_PAGE) {
      throw new GraphQLError(`The requested page size is greater than the maximum allowed (${MAX_PAGE}).`, {
        extensions: { code: 'BAD_REQUEST' },
      });
    }
  }
  const list = args.reverse ? [...items].reverse() : items;
  let start = 0;
  let end = list.length;
  if (after) {
    const id = decodeCursor(after);
    const i = list.findIndex((x) => x.id === id);
    start = i >= 0 ? i + 1 : end;
  }
  if (before) {
    const id = decodeCursor(before);
    const i = list.findIndex((x) => x.id === id);
    end = i >= 0 ? i : end;
  }
  let page = list.slice(start, end);
  let hasNextPage = end < list.length;
  let hasPreviousPage = start > 0;
  if (first != null) {
    hasNextPage = hasNextPage || page.length > first;
    page = page.slice(0, first);
  }
  if (last != null) {
    hasPreviousPage = hasPreviousPage || page.length > last;
    page = page.slice(Math.max(0, page.length - last));
  }
  const views = page.map(view);
  return {
    edges: page.map((item, i) => ({ cursor: encodeCursor(item.id), node: views[i] })),
    nodes: views,
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: page.length ? encodeCursor(page[0]!.id) : null,
      endCursor: page.length ? encodeCursor(page[page.length - 1]!.id) : null,
    },
  };
}

export function count(n: number, limit = 10_000) {
  return { count: Math.min(n, limit), precision: n > limit ? 'AT_LEAST' : 'EXACT' };
}
