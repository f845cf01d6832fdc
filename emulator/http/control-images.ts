// Control API, part 3: what a merchant (or another app) does to store images after our app optimised
// them, so tests can live through a store's ordinary life. Each follows Shopify's documented behaviour:
// - Files > Replace (admin) and another app's `fileUpdate(originalSource)` keep the MediaImage id and
//   its CDN path; the `?v=` of the URL and `updatedAt` change, the product webhooks follow.
//   (shopify.dev Admin GraphQL `fileUpdate`: "Updates ... the file's content ... retaining the same URL".)
// - Alt text edits keep the bytes and the URL; renames move the file to a new path (the old one keeps
//   answering, as for our own renames in graphql/mutations-files.ts).
// - A product image removed and another added: a new MediaImage with a new id.
// - A collection or article image changed in the admin: a new image at a new `?v=`, the collection
//   webhook follows (there is no article topic we subscribe to).
import type { Hono } from 'hono';
import { addFile, cdnPath, ownedImage } from '../store/factory';
import { blobFromBytes, seedBlob, type SeedImageName, SEED_IMAGE_NAMES } from '../store/images';
import { isoNow, type Emulator } from '../store/registry';
import { ensureCatalogue } from '../store/shop-state';
import type { ShopState } from '../store/shop-state';
import type { Blob, FileRec, OwnedImage } from '../store/types';
import { collectionPayload, enqueueWebhook, productPayload } from '../webhooks';
import { body, CONTROL, withShop } from './control-shops';
import { describeArticle, describeCollection, describeFile, describeProduct } from './describe';

type ImageBody = { seed?: string; base64?: string; alt?: string; filename?: string };

/** The picture of a request: base64 bytes or a seed photo by name; null (400) for anything else. */
function blobOf(b: ImageBody): Blob | null {
  if (b.base64) return blobFromBytes(new Uint8Array(Buffer.from(b.base64, 'base64')));
  return (SEED_IMAGE_NAMES as readonly string[]).includes(b.seed ?? '') ? seedBlob(b.seed as SeedImageName) : null;
}

const numericId = (v: string | undefined) => Number((v ?? '').replace(/^.*\//, ''));

/** The version stamp of a changed file: never the same `?v=` twice, even within one second. */
const nextVersion = (old: number) => Math.max(old + 1, Math.floor(Date.now() / 1000));

function productsChanged(emu: Emulator, shop: ShopState, f: FileRec): void {
  for (const pid of f.productIds) {
    const p = shop.products.find((x) => x.id === pid);
    if (!p) continue;
    p.updatedAt = f.updatedAt;
    enqueueWebhook(emu, shop, 'products/update', productPayload(emu, shop, p));
  }
}

export function mountControlImages(app: Hono, emu: Emulator): void {
  const S = `${CONTROL}/shops/:shop`;

  // Files > Replace: new bytes in the same file (id, path and products kept).
  app.post(
    `${S}/files/:id/replace`,
    withShop(emu, async (c, shop) => {
      ensureCatalogue(shop);
      const f = shop.files.get(numericId(c.req.param('id')));
      if (!f) return c.json({ error: 'no such file' }, 404);
      const blob = blobOf(await body<ImageBody>(c));
      if (!blob) return c.json({ error: 'not an image' }, 400);
      f.blob = blob;
      f.status = 'READY';
      f.errors = [];
      f.version = nextVersion(f.version);
      f.updatedAt = isoNow();
      productsChanged(emu, shop, f);
      return c.json(describeFile(emu, shop, f));
    }),
  );

  // The merchant edits the alt text or renames the file in the admin.
  app.patch(
    `${S}/files/:id`,
    withShop(emu, async (c, shop) => {
      ensureCatalogue(shop);
      const f = shop.files.get(numericId(c.req.param('id')));
      if (!f) return c.json({ error: 'no such file' }, 404);
      const b = await body<{ alt?: string; filename?: string }>(c);
      if (b.filename !== undefined && b.filename !== f.filename) {
        if ((shop.takenFilenames.get(b.filename) ?? f.id) !== f.id)
          return c.json({ error: 'The provided filename already exists.' }, 409);
        f.filename = b.filename;
        shop.takenFilenames.set(b.filename, f.id);
        emu.cdnPaths.set(cdnPath(shop, 'files', b.filename), { shop: shop.domain, kind: 'file', id: f.id });
      }
      if (b.alt !== undefined) f.alt = b.alt;
      f.updatedAt = isoNow();
      productsChanged(emu, shop, f);
      return c.json(describeFile(emu, shop, f));
    }),
  );

  // A product image removed (the media and its file go), optionally another added in its place.
  app.delete(
    `${S}/products/:id/media/:mediaId`,
    withShop(emu, (c, shop) => {
      ensureCatalogue(shop);
      const p = shop.products.find((x) => x.id === numericId(c.req.param('id')));
      const mediaId = numericId(c.req.param('mediaId'));
      if (!p || !p.mediaIds.includes(mediaId)) return c.json({ error: 'no such media' }, 404);
      p.mediaIds = p.mediaIds.filter((m) => m !== mediaId);
      shop.files.delete(mediaId);
      p.updatedAt = isoNow();
      enqueueWebhook(emu, shop, 'products/update', productPayload(emu, shop, p));
      return c.json(describeProduct(emu, shop, p));
    }),
  );
  app.post(
    `${S}/products/:id/media-replace/:mediaId`,
    withShop(emu, async (c, shop) => {
      ensureCatalogue(shop);
      const p = shop.products.find((x) => x.id === numericId(c.req.param('id')));
      const mediaId = numericId(c.req.param('mediaId'));
      const at = p ? p.mediaIds.indexOf(mediaId) : -1;
      if (!p || at < 0) return c.json({ error: 'no such media' }, 404);
      const b = await body<ImageBody>(c);
      const blob = blobOf(b);
      if (!blob) return c.json({ error: 'not an image' }, 400);
      const ext = blob.mimeType === 'image/png' ? 'png' : 'jpg';
      const f = addFile(emu, shop, blob, b.filename ?? `${p.handle}-new.${ext}`, b.alt ?? '', [p.id]);
      shop.files.delete(mediaId);
      p.mediaIds[at] = f.id;
      p.updatedAt = isoNow();
      enqueueWebhook(emu, shop, 'products/update', productPayload(emu, shop, p));
      return c.json(describeProduct(emu, shop, p));
    }),
  );

  // The merchant picks another collection or article image (a collection's change sends its webhook).
  type ImageOwner = { id: number; handle: string; image: OwnedImage | null; updatedAt: string };
  const ownersIn = (shop: ShopState, folder: 'collections' | 'articles'): ImageOwner[] =>
    folder === 'collections' ? shop.collections : shop.articles;
  for (const folder of ['collections', 'articles'] as const) {
    app.put(
      `${S}/${folder}/:id/image`,
      withShop(emu, async (c, shop) => {
        ensureCatalogue(shop);
        const owner = ownersIn(shop, folder).find((x) => x.id === numericId(c.req.param('id')));
        if (!owner) return c.json({ error: `no such ${folder.slice(0, -1)}` }, 404);
        const b = await body<ImageBody>(c);
        const blob = blobOf(b);
        if (!blob) return c.json({ error: 'not an image' }, 400);
        const old = owner.image;
        const filename = b.filename ?? `${owner.handle}.jpg`;
        owner.image = ownedImage(emu, shop, folder, owner.id, blob, filename, b.alt ?? old?.alt ?? '');
        owner.image.version = nextVersion(old?.version ?? 0);
        owner.updatedAt = isoNow();
        if (folder === 'collections') {
          const col = shop.collections.find((x) => x.id === owner.id)!;
          enqueueWebhook(emu, shop, 'collections/update', collectionPayload(emu, shop, col));
          return c.json(describeCollection(emu, shop, col));
        }
        return c.json(
          describeArticle(
            emu,
            shop,
            shop.articles.find((x) => x.id === owner.id)!,
          ),
        );
      }),
    );
  }
}
