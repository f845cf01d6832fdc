// The merchant's own words while a job runs (decisions.md, "Merchant's words and choices"): an alt text or
// file name the merchant writes in Shopify is never overwritten by our template. The catalogue sync records
// such an edit without the image lease (upsertCatalogue, the same statement a full sync and a webhook's
// refetch run); a job that holds the lease meanwhile must not put its template over it, in Shopify or in
// the row, and a later run must not either. Shopify here keeps each image's alt text and file name, and the
// merchant's edit plus the sync that records it happen at a chosen point of the job.
import { describe, expect, it } from 'vitest';
import { upsertCatalogue } from '../../../worker/db/items-sync';
import type { ItemRow } from '../../../worker/db/items';
import type { ShopRow } from '../../../worker/db/shops';
import type { OptimiseMessage } from '../../../worker/messages/optimise';
import { processOptimiseMessage } from '../../../worker/optimise/consumer';
import { planJob } from '../../../worker/optimise/plan';
import type { ImageTarget, ImageUpdate, PipelineDeps } from '../../../worker/optimise/ports';
import { createShop } from '../helpers';
import { imageRow, makeDeps, recordingQueue, saveSettings, seedItem } from './fixtures';

type Words = { alt: string; fileName: string };
type Kind = 'optimize' | 'reoptimize' | 'restore';
/** Where in the job the merchant's edit lands and the sync records it. */
type When = 'while-reading' | 'before-write' | 'after-shopify-took-it';

const MERCHANT_ALT = 'Hand-stitched navy linen shirt, front';
const MERCHANT_NAME = 'navy-linen-front.jpg';

async function world(opts: { fileNames: boolean }) {
  const { shop } = await createShop();
  const { deps: base, fakes } = makeDeps();
  // The wizard's default: alt text only for images without one; file names from the template when asked.
  await saveSettings(shop.id, (s) => {
    s.alt_text = { ...s.alt_text, switch: 1, blank_replace: 1 };
    s.file_name = { ...s.file_name, switch: opts.fileNames ? 1 : 0 };
  });
  const { item, images } = await seedItem(shop, fakes.cdn, { alt: '' });
  const image = images[0]!;
  // Shopify's own record of the image's words.
  const store: Words = { alt: image.alt, fileName: image.fileName };
  let hook: { when: When; fn: () => Promise<void> } | null = null;
  const take = async (when: When) => {
    if (hook?.when !== when) return;
    const h = hook;
    hook = null;
    await h.fn();
  };
  const deps: PipelineDeps = {
    ...base,
    fetchImage: async (url) => {
      const bytes = await base.fetchImage(url);
      await take('while-reading'); // the job looks at what Shopify serves (a restore's first step)
      return bytes;
    },
    optimiseImage: async (...a) => {
      const out = await base.optimiseImage(...a);
      await take('before-write'); // after the job read the row, before it decides and writes Shopify
      return out;
    },
    shopify: {
      ...base.shopify,
      updateImage: async (s: ShopRow, target: ImageTarget, update: ImageUpdate) => {
        await take('before-write'); // a restore runs no engine
        const res = await base.shopify.updateImage(s, target, update);
        if (update.alt !== undefined) store.alt = update.alt;
        if (update.fileName !== undefined) store.fileName = update.fileName; // a staged file's own name is not the file's
        await take('after-shopify-took-it'); // Shopify has it; the job has not recorded it yet
        return res;
      },
    },
  };
  /** The catalogue sync (or a product webhook's refetch) records what Shopify has now, without the lease. */
  const sync = async () => {
    const row = (await imageRow(image.id))!;
    await upsertCatalogue(
      deps.db,
      shop.id,
      1,
      [
        {
          resourceId: item.resourceId,
          title: item.title,
          handle: item.handle,
          thumbnailUrl: row.src,
          published: true,
          resourceUpdatedAt: null,
        },
      ],
      [
        {
          resourceId: item.resourceId,
          imgId: row.imgId,
          position: row.position,
          src: row.src,
          alt: store.alt,
          fileName: store.fileName,
          fileType: row.fileType,
          width: row.width,
          height: row.height,
          originalSize: row.originalSize,
        },
      ],
      Date.now(),
    );
  };
  /** The merchant edits the image in Shopify's admin and the sync records it. */
  const merchantEdits = async (words: Partial<Words>) => {
    Object.assign(store, words);
    await sync();
  };
  const run = async (kind: Kind) => {
    const msg = await planOne(deps, shop, kind, item);
    for (let attempt = 1; attempt <= 6; attempt++) if ((await processOptimiseMessage(deps, msg, attempt)).ack) return;
    throw new Error('never acked');
  };
  const during = (when: When, words: Partial<Words>) => {
    hook = { when, fn: () => merchantEdits(words) };
  };
  return { shop, deps, fakes, store, imageId: image.id, sync, merchantEdits, run, during, hookLeft: () => hook !== null };
}

async function planOne(deps: PipelineDeps, shop: ShopRow, kind: Kind, item: ItemRow): Promise<OptimiseMessage> {
  const q = recordingQueue();
  await planJob(
    { db: deps.db, queue: q.queue, log: deps.log, now: deps.now, canOptimise: deps.quota.canOptimise },
    {
      shop,
      dataType: 1,
      processType: kind,
      pageType: kind === 'optimize' ? 1 : 0,
      pattern: 'manual',
      selection: { itemIds: [item.id] },
    },
  );
  expect(q.sent).toHaveLength(1);
  return q.sent[0] as OptimiseMessage;
}

type World = Awaited<ReturnType<typeof world>>;

/** The merchant's alt text stands in Shopify and in the row, and the row does not claim it as ours. */
async function expectMerchantAlt(w: World) {
  const row = (await imageRow(w.imageId))!;
  expect({ shopify: w.store.alt, row: row.alt, ours: row.altEdited }).toEqual({
    shopify: MERCHANT_ALT,
    row: MERCHANT_ALT,
    ours: false,
  });
}

/** Later runs (a re-optimisation at another level, a restore, a replayed webhook) leave the merchant's alt alone. */
async function laterRunsKeepIt(w: World) {
  await w.sync(); // a replayed webhook: the same refetch again
  await expectMerchantAlt(w);
  await saveSettings(w.shop.id, (s) => {
    s.alt_text = { ...s.alt_text, switch: 1, blank_replace: 1 };
    s.image_opt.quality.level = 3;
  });
  await w.run('reoptimize');
  await expectMerchantAlt(w);
  await w.run('restore');
  await expectMerchantAlt(w);
  expect((await imageRow(w.imageId))!.status).toBe('restored');
}

describe("the merchant's words while a job runs", () => {
  for (const when of ['before-write', 'after-shopify-took-it'] as const) {
    it(`an alt text the merchant writes while the image is optimised (recorded ${when}) stands, now and after later runs`, async () => {
      const w = await world({ fileNames: false });
      w.during(when, { alt: MERCHANT_ALT });
      await w.run('optimize');
      expect(w.hookLeft()).toBe(false);
      expect((await imageRow(w.imageId))!.status).toBe('compressed');
      await expectMerchantAlt(w);
      await laterRunsKeepIt(w);
    });

    it(`a file name the merchant gives while the image is optimised (recorded ${when}) stands in Shopify and the row`, async () => {
      const w = await world({ fileNames: true });
      w.during(when, { fileName: MERCHANT_NAME });
      await w.run('optimize');
      expect(w.hookLeft()).toBe(false);
      const row = (await imageRow(w.imageId))!;
      expect({ shopify: w.store.fileName, row: row.fileName, ours: row.fileNameEdited }).toEqual({
        shopify: MERCHANT_NAME,
        row: MERCHANT_NAME,
        ours: false,
      });
    });
  }

  it("our own words, recorded by the sync Shopify's change started before the job records them, are still ours: a restore brings the merchant's back", async () => {
    const w = await world({ fileNames: true });
    const before = { ...w.store };
    w.during('after-shopify-took-it', {}); // the products/update webhook of our own fileUpdate, refetched at once
    await w.run('optimize');
    expect(w.hookLeft()).toBe(false);
    const row = (await imageRow(w.imageId))!;
    expect(w.store.alt).not.toBe(before.alt);
    expect(w.store.fileName).not.toBe(before.fileName);
    expect({ alt: row.alt, fileName: row.fileName, altOurs: row.altEdited, nameOurs: row.fileNameEdited }).toEqual({
      alt: w.store.alt,
      fileName: w.store.fileName,
      altOurs: true,
      nameOurs: true,
    });
    await w.run('restore');
    expect((await imageRow(w.imageId))!.status).toBe('restored');
    expect(w.store).toEqual(before);
  });

  it("a restore whose own change the sync records first leaves the merchant's words in the row as theirs", async () => {
    const w = await world({ fileNames: true });
    const before = { ...w.store };
    await w.run('optimize');
    w.during('after-shopify-took-it', {}); // the webhook of the restore's own fileUpdate, refetched at once
    await w.run('restore');
    expect(w.hookLeft()).toBe(false);
    const row = (await imageRow(w.imageId))!;
    expect(w.store).toEqual(before);
    expect({ alt: row.alt, fileName: row.fileName, altOurs: row.altEdited, nameOurs: row.fileNameEdited }).toEqual({
      ...before,
      altOurs: false,
      nameOurs: false,
    });
  });

  it('an alt text written after the job ended (the reverse order) stands too, and a replayed webhook changes nothing', async () => {
    const w = await world({ fileNames: false });
    await w.run('optimize');
    expect(w.store.alt).not.toBe(''); // the template filled the blank alt
    expect((await imageRow(w.imageId))!.altEdited).toBe(true);
    await w.merchantEdits({ alt: MERCHANT_ALT });
    await expectMerchantAlt(w);
    await laterRunsKeepIt(w);
  });

  it('a restore while the merchant writes an alt text does not put the old one over it', async () => {
    const w = await world({ fileNames: false });
    await w.run('optimize');
    w.during('while-reading', { alt: MERCHANT_ALT });
    await w.run('restore');
    expect(w.hookLeft()).toBe(false);
    await expectMerchantAlt(w);
  });
});
