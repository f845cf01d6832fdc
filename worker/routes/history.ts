import { Hono } from 'hono';
import { z } from 'zod';
import { historyPage, itemImagesPage, optTotals } from '../history/view';
import { markDownloaded } from '../db/images';
import { ack } from '../lib/envelope';
import { NotFoundError } from '../lib/errors';
import { parseInput, readBody, readQuery } from '../lib/validate';
import type { AppEnv } from '../types';
import type { AckEnvelope } from '../../shared/api/envelope';
import type { DownloadMarked, HistoryPage, ImgOptTotal, ItemImagesPage } from '../../shared/api/image-opt';
import { PAGE_SIZES } from '../../shared/api/vocabulary';
import type { MessageKey } from '../../shared/messages';

// History (getImageOptDataPage), detail (getProductImagesData), statistics (getImgOptTotal), updateIsDownload.
export const historyRoutes = new Hono<AppEnv>();

/** Choices 10, 30, 50, 70, 100, and 5 in the small variant; default 10, page 1. */
export { PAGE_SIZES };
const pageSize = z.coerce
  .number()
  .default(10)
  .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), {
    error: 'server.common.pageSizeOneOf' satisfies MessageKey,
    params: { values: PAGE_SIZES.join(', ') },
  });
const page = z.coerce.number().int().min(1).max(100000).default(1);

const historyQuery = z.object({
  page,
  pageSize,
  title: z.string().max(255).default(''),
  data_type: z.coerce.number().int().min(1).max(4).default(1),
  page_type: z.coerce
    .number()
    .pipe(z.union([z.literal(0), z.literal(1)]))
    .default(0),
});

historyRoutes.get('/api/v2/image-opt/getImageOptDataPage', async (c) => {
  const q = parseInput(historyQuery, readQuery(c));
  const data = await historyPage(
    c.get('db'),
    c.get('shop').id,
    {
      dataType: q.data_type,
      pageType: q.page_type,
      title: q.title,
      page: q.page,
      pageSize: q.pageSize,
    },
    c.env,
  );
  return ack<HistoryPage>(c, data);
});

const detailQuery = z.object({
  prod_id: z.string().trim().min(1).max(64),
  data_type: z.coerce.number().int().min(1).max(4).default(1),
  page,
  pageSize,
});

/**
 * One history item and a page of its images: the details screen's read, also when a link names the item
 * (`/image_optimisation_details?item=<id>`, a reload, a bookmark). 404 `server.optimise.itemNotFound` for
 * an id that is not the authenticated shop's (another shop's or none: the same answer, nothing of the
 * other shop); 400 with the documented validation message for bad input. Reads only.
 */
historyRoutes.get('/api/v2/image-opt/getProductImagesData', async (c) => {
  const q = parseInput(detailQuery, readQuery(c));
  const data = await itemImagesPage(c.get('db'), c.env, c.get('shop').id, {
    prodId: q.prod_id,
    dataType: q.data_type,
    page: q.page,
    pageSize: q.pageSize,
  });
  if (!data) throw new NotFoundError('server.optimise.itemNotFound');
  return ack<ItemImagesPage>(c, data);
});

historyRoutes.get('/api/v2/image-opt/getImgOptTotal', async (c) => {
  const totals = await optTotals(c.get('db'), c.get('shop'));
  // Documented at the top level (ack, total, settings, opt_schedule); also under data for AckEnvelope readers.
  return c.json({ ack: 1, message: 'success', ...totals, data: totals } satisfies AckEnvelope<ImgOptTotal> & ImgOptTotal);
});

historyRoutes.post('/api/v2/image-opt/updateIsDownload', async (c) => {
  const { opt_id } = parseInput(z.object({ opt_id: z.coerce.number().int().positive() }), await readBody(c));
  const marked = await markDownloaded(c.get('db'), c.get('shop').id, opt_id);
  if (marked === 0) throw new NotFoundError('server.common.noData');
  return ack<DownloadMarked>(c, { opt_id, marked });
});
