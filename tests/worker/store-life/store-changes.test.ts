// The store changes after we optimise (decisions.md): each case of issue 21 on its own, through the real
// queue handlers against the store emulator. The model-based test (store-life.test.ts) mixes them at random.
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveImageSettings } from '../../../worker/db/image-settings';
import { images, imageVersions, items, jobImages, usageLedger } from '../../../worker/db/schema';
import type { ShopRow } from '../../../worker/db/shops';
import { KEEP_MS } from '../../../worker/optimise/run-context';
import { defaultImageSettings } from '../../../shared/image-settings';
import { english } from '../../../shared/messages';
import { createEmulatorShop, type EmulatorShop, type FileInfo } from '../emulator-client';
import { historyPage } from '../../../worker/history/view';
import { db } from '../helpers';
import { drainOptimiseQueue, installedShop, planTabJob, syncCatalogue, type JobKind } from './harness';
import { processOptimiseMessage } from '../../../worker/optimise/consumer';
import { pipelineDeps } from '../../../worker/optimise/deps';
import type { PipelineDeps } from '../../../worker/optimise/ports';
import { createLogger } from '../../../worker/lib/log';
import { sha256HexOfBytes } from '../../../worker/lib/crypto';

const DAY = 24 * 60 * 60 * 1000;

async function shopWithTemplates(): Promise<{ emu: EmulatorShop; shop: ShopRow }> {
  const emu = await createEmulatorShop({
    seed: 'large',
    products: 1,
    imagesPerProduct: 2,
    install: true,
    settings: { fileProcessingMs: 20 },
  });
  const shop = await installedShop(emu, { name: 'Changes Shop', planLevel: 3 });
  const settings = defaultImageSettings();
  settings.file_name.switch = 1; // file names from templates: the case where a restore finds its old name taken
  settings.alt_text.switch = 1;
  settings.alt_text.blank_replace = 0;
  await saveImageSettings(db(), shop.id, settings);
  await syncCatalogue(shop);
  return { emu, shop };
}

async function run(shop: ShopRow, kind: JobKind, dataType = 1) {
  await drainOptimiseQueue(await planTabJob(shop, kind, dataType));
}

async function rowsOf(shopId: number, dataType = 1) {
  const rows = await db()
    .select({ image: images })
    .from(images)
    .innerJoin(items, eq(items.id, images.itemId))
    .where(and(eq(images.shopId, shopId), eq(items.dataType, dataType), eq(images.deleted, false)))
    .all();
  return rows.map((r) => r.image).sort((a, b) => a.id - b.id);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('restore after renaming', () => {
  it('ends Restored with the original bytes, alt text and a file name (the nearest free one when taken), free of charge', async () => {
    const { emu, shop } = await shopWithTemplates();
    const before = new Map((await emu.files()).map((f) => [f.id, f]));
    await run(shop, 'optimize');
    const optimised = await rowsOf(shop.id);
    expect(optimised.every((r) => r.status === 'compressed' && r.fileNameEdited)).toBe(true);
    const charges = (await db().select().from(usageLedger).where(eq(usageLedger.shopId, shop.id)).all()).length;

    await run(shop, 'restore');
    for (const row of await rowsOf(shop.id)) {
      const file = await emu.file(row.imgId);
      const original = before.get(row.imgId)!;
      expect(row.status, `image ${row.id}: ${row.failReason}`).toBe('restored');
      expect(file.sha256).toBe(original.sha256);
      expect(file.alt).toBe(original.alt);
      expect(row.fileName).toBe(file.filename);
      if (file.filename !== original.filename) {
        // Shopify keeps the old name taken after a rename (the emulator's reading): the nearest free name.
        expect(file.filename).toMatch(/-\d+\.jpg$/);
        expect(row.noteKey).toBe('server.optimise.restoredAs');
        expect(row.noteParams).toEqual({ name: file.filename, original: original.filename });
      }
    }
    expect((await db().select().from(usageLedger).where(eq(usageLedger.shopId, shop.id)).all()).length).toBe(charges);
  });
});

describe('a picture changed in Shopify after we optimised it', () => {
  it('Files > Replace: restore and re-optimise change nothing and say why; the row moves on to the new picture', async () => {
    const { emu, shop } = await shopWithTemplates();
    await run(shop, 'optimize');
    const [row] = await rowsOf(shop.id);
    const replaced = await emu.replaceFile(row!.imgId, { seed: 'flower.jpg' });

    // Restore before any webhook or sync noticed: Shopify is asked first.
    await run(shop, 'restore');
    expect((await emu.file(row!.imgId)).sha256, 'the newer picture stays').toBe(replaced.sha256);
    const after = (await rowsOf(shop.id)).find((r) => r.id === row!.id)!;
    expect(after.status).toBe('pending');
    expect(after.noteKey).toBe('server.optimise.changedInShopify');
    expect(after.originalKey).toBeNull();
    const member = await db().select().from(jobImages).where(eq(jobImages.imageId, row!.id)).all();
    expect(member.map((m) => m.error)).toContain(english('server.optimise.changedNotRestored'));
    // The history keeps the item (its other image restored, this one's note says why it was not).
    const history = await historyPage(db(), shop.id, { dataType: 1, pageType: 0, title: '', page: 1, pageSize: 10 });
    expect(history.data.map((h) => h.id)).toContain(row!.itemId);
    // The old pair is on record and its original still in R2 until its date.
    const [version] = await db().select().from(imageVersions).where(eq(imageVersions.imageId, row!.id)).all();
    expect(version?.originalKey).toBe(row!.originalKey);
    expect(version?.servedSha256).toBe(replaced.sha256);
    expect(await env.BUCKET.get(row!.originalKey!)).toBeTruthy();

    // The new picture is a new original: optimising stores it first, then replaces it with its own result.
    await run(shop, 'optimize');
    const again = (await rowsOf(shop.id)).find((r) => r.id === row!.id)!;
    expect(again.status).toBe('compressed');
    expect(again.originalSha256).toBe(replaced.sha256);
    expect((await emu.file(row!.imgId)).sha256).toBe(again.resultSha256);
  });

  it('another app’s fileUpdate seen by the catalogue sync: the row moves on before any job runs; re-optimise starts from the new picture', async () => {
    const { emu, shop } = await shopWithTemplates();
    await run(shop, 'optimize');
    const [a, b] = await rowsOf(shop.id);
    const other = await emu.file(b!.imgId);
    const res = await emu.graphql<{ fileUpdate: { userErrors: unknown[] } }>(
      `mutation($files: [FileUpdateInput!]!) { fileUpdate(files: $files) { userErrors { field message } } }`,
      { files: [{ id: a!.imgId, originalSource: other.url.replace(/\?.*$/, '') }] },
    );
    expect(res.body.data?.fileUpdate.userErrors).toEqual([]);
    const served = await emu.waitForFile(a!.imgId);
    await syncCatalogue(shop);
    const moved = (await rowsOf(shop.id)).find((r) => r.id === a!.id)!;
    expect(moved.status).toBe('pending');
    expect(moved.noteKey).toBe('server.optimise.changedInShopify');

    // Re-optimising the item now optimises the new picture from itself, never from the old original.
    await run(shop, 'reoptimize');
    const now = (await rowsOf(shop.id)).find((r) => r.id === a!.id)!;
    expect(now.originalSha256).toBe(served.sha256);
    expect((await emu.file(a!.imgId)).sha256).toBe(now.status === 'compressed' ? now.resultSha256 : served.sha256);
    expect((await env.BUCKET.get(now.originalKey!))?.customMetadata?.sha256).toBe(served.sha256);
  });

  it('a collection image changed in the admin is noticed by the sync and never overwritten', async () => {
    const { emu, shop } = await shopWithTemplates();
    await run(shop, 'optimize', 2);
    const [row] = await rowsOf(shop.id, 2);
    expect(row?.status).toBe('compressed');
    const collection = (await emu.collections())[0]!;
    const changed = await emu.setCollectionImage(collection.id, { seed: 'chelsea.jpg' });
    await syncCatalogue(shop);
    expect((await rowsOf(shop.id, 2))[0]!.status).toBe('pending');
    // The history keeps the collection, as not optimized now (its only image is the merchant's new one).
    const history = await historyPage(db(), shop.id, { dataType: 2, pageType: 0, title: '', page: 1, pageSize: 10 });
    expect(history.data.map((h) => [h.id, h.status])).toContainEqual([row!.itemId, '']);
    await run(shop, 'restore', 2);
    expect((await emu.collections())[0]!.image?.sha256).toBe(changed.image?.sha256);
  });
});

describe('a picture replaced while the job works on it', () => {
  it('is never overwritten with the result of the older picture: the run starts over from the new one, charged once', async () => {
    const { emu, shop } = await shopWithTemplates();
    const [a, b] = await rowsOf(shop.id);
    const before = await emu.file(a!.imgId);
    let replaced: FileInfo | null = null;
    const product = pipelineDeps(env, createLogger({ test: 'replaced-during-engine' }));
    const deps: PipelineDeps = {
      ...product,
      // The merchant uses Files > Replace while the engine encodes image a's first picture.
      optimiseImage: async (input, settings) => {
        if (!replaced && (await sha256HexOfBytes(input)) === before.sha256)
          replaced = await emu.replaceFile(a!.imgId, { seed: 'flower.jpg' });
        return product.optimiseImage(input, settings);
      },
    };
    for (const m of await planTabJob(shop, 'optimize')) await processOptimiseMessage(deps, m, 1);

    expect(replaced, 'the engine ran on the first picture').not.toBeNull();
    const now = (await rowsOf(shop.id)).find((r) => r.id === a!.id)!;
    const served = await emu.file(a!.imgId);
    expect(now.originalSha256, "the row's original is the merchant's new picture").toBe(replaced!.sha256);
    expect(served.sha256, 'Shopify serves our result of the new picture').toBe(now.resultSha256);
    expect(now.status).toBe('compressed');
    expect((await env.BUCKET.get(now.originalKey!))?.customMetadata?.sha256).toBe(replaced!.sha256);
    // The first picture's pair is on record; its original is still in R2.
    const [version] = await db().select().from(imageVersions).where(eq(imageVersions.imageId, a!.id)).all();
    expect(version?.servedSha256).toBe(replaced!.sha256);
    expect((await env.BUCKET.get(version!.originalKey!))?.customMetadata?.sha256).toBe(before.sha256);
    // One charge per image: the start-over costs nothing more.
    const charges = await db().select().from(usageLedger).where(eq(usageLedger.shopId, shop.id)).all();
    expect(charges.map((c) => c.imageId).sort()).toEqual([a!.id, b!.id].sort());
  });
});

describe('a file name Shopify has given to another file', () => {
  it("two products with the same title and vendor: the second image under the template's name gets the nearest free one, and its note says so", async () => {
    const { emu, shop } = await shopWithTemplates();
    const [first] = await emu.products();
    await emu.createProduct({ title: first!.title, vendor: first!.vendor, images: [{ seed: 'chelsea.jpg' }] });
    await syncCatalogue(shop);

    // One image at a time: the emulator takes a file's new name when its processing ends.
    await drainOptimiseQueue(await planTabJob(shop, 'optimize'), { batchSize: 1 });
    const rows = await rowsOf(shop.id);
    expect(rows.map((r) => r.status)).toEqual(['compressed', 'compressed', 'compressed']);
    const names = rows.map((r) => r.fileName);
    expect(new Set(names).size, 'every file has its own name').toBe(3);
    const renamed = rows.filter((r) => r.noteKey === 'server.optimise.savedAs');
    expect(renamed).toHaveLength(1);
    const { name, original } = renamed[0]!.noteParams as { name: string; original: string };
    expect(name).toBe(original.replace(/(\.[a-z0-9]+)$/i, '-1$1'));
    expect(renamed[0]!.fileName).toBe(name);
    expect(names, 'the name wanted is the other product’s image').toContain(original);
    for (const r of rows) {
      const f = await emu.file(r.imgId);
      expect([f.filename, f.sha256]).toEqual([r.fileName, r.resultSha256]);
    }
  });
});

describe('the restore date is the day R2 deletes the original', () => {
  it('a re-optimise on day 25 writes the original again, and the date shown moves with that write', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const { shop } = await shopWithTemplates();
    await run(shop, 'optimize');
    const [first] = await rowsOf(shop.id);
    const firstObj = await env.BUCKET.get(first!.originalKey!);
    expect(first!.expiresAt).toBe(Number(firstObj!.customMetadata!.storedAt) + KEEP_MS);

    vi.setSystemTime(Date.now() + 25 * DAY);
    await run(shop, 'reoptimize');
    const [later] = await rowsOf(shop.id);
    const laterObj = await env.BUCKET.get(later!.originalKey!);
    const storedAt = Number(laterObj!.customMetadata!.storedAt);
    expect(storedAt).toBeGreaterThan(first!.expiresAt! - 6 * DAY);
    expect(later!.expiresAt, 'the admin shows the day the lifecycle rule deletes it').toBe(storedAt + KEEP_MS);
  });
});
