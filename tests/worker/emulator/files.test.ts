// Staged uploads and in-place file replacement: new bytes at the same CDN URL, PROCESSING then READY,
// FAILED under fault injection, Shopify's filename rules; collection and article images.
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulatorShop, type EmulatorShop } from '../emulator-client';

let shop: EmulatorShop;
beforeAll(async () => {
  shop = await createEmulatorShop({ install: true, settings: { fileProcessingMs: 60 } });
});

type Target = { url: string; resourceUrl: string; parameters: { name: string; value: string }[] };

async function stage(filename: string, mimeType: string, bytes: Uint8Array): Promise<string> {
  const { body } = await shop.graphql<{ stagedUploadsCreate: { stagedTargets: Target[] } }>(
    'mutation S($input: [StagedUploadInput!]!) { stagedUploadsCreate(input: $input) { stagedTargets { url resourceUrl parameters { name value } } userErrors { field message } } }',
    { input: [{ resource: 'IMAGE', filename, mimeType, httpMethod: 'POST', fileSize: String(bytes.length) }] },
  );
  const target = body.data!.stagedUploadsCreate.stagedTargets[0]!;
  const form = new FormData();
  for (const p of target.parameters) form.append(p.name, p.value);
  form.append('file', new File([bytes], filename, { type: mimeType }));
  const res = await fetch(target.url, { method: 'POST', body: form });
  expect(res.status).toBe(201);
  return target.resourceUrl;
}

const FILE_UPDATE = `mutation U($files: [FileUpdateInput!]!) { fileUpdate(files: $files) {
  files { id alt fileStatus ... on MediaImage { image { url width height } } } userErrors { code field message } } }`;

async function sha(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('emulator files', () => {
  it('fileUpdate replaces the bytes behind the same CDN path: PROCESSING, then READY', async () => {
    const [product] = await shop.products();
    const target = product!.media[0]!;
    const replacement = await shop.fileBytes(product!.media[1]!.id); // another real photograph of the seed
    const resourceUrl = await stage('smaller.jpg', 'image/jpeg', replacement);
    await shop.setSettings({ fileProcessingMs: 1500 }); // long enough to see PROCESSING on a busy machine

    const { body } = await shop.graphql<{ fileUpdate: { files: { fileStatus: string }[]; userErrors: unknown[] } }>(FILE_UPDATE, {
      files: [{ id: target.id, originalSource: resourceUrl, alt: 'New alt' }],
    });
    expect(body.data!.fileUpdate.userErrors).toEqual([]);
    expect(body.data!.fileUpdate.files[0]!.fileStatus).toBe('PROCESSING');
    const busy = await shop.graphql<{ fileUpdate: { userErrors: { code: string }[] } }>(FILE_UPDATE, {
      files: [{ id: target.id, alt: 'x' }],
    });
    expect(busy.body.data!.fileUpdate.userErrors[0]!.code).toBe('NON_READY_STATE');

    const done = await shop.waitForFile(target.id, 10_000);
    await shop.setSettings({ fileProcessingMs: 60 });
    expect(done).toMatchObject({ status: 'READY', alt: 'New alt', sha256: await sha(replacement), filename: target.filename });
    expect(new URL(done.url).pathname).toBe(new URL(target.url).pathname);
    expect(done.version).toBeGreaterThan(target.version);
    const served = new Uint8Array(await (await fetch(target.url)).arrayBuffer());
    expect(await sha(served)).toBe(await sha(replacement));
    expect((await shop.webhooks({ topic: 'products/update' })).length).toBeGreaterThan(0);
  });

  it('fails processing under fault injection and keeps the old bytes', async () => {
    const [, product] = await shop.products();
    const target = product!.media[0]!;
    const resourceUrl = await stage('x.jpg', 'image/jpeg', await shop.fileBytes(target.id));
    await shop.failFileProcessing(1);
    await shop.graphql(FILE_UPDATE, { files: [{ id: target.id, originalSource: resourceUrl }] });
    const failed = await shop.waitForFile(target.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.errors[0]!.code).toBe('IMAGE_PROCESSING_FAILURE');
    expect(failed.sha256).toBe(target.sha256);
    expect((await shop.info()).settings.refuseUpdatesOfFailedFiles).toBe(true); // Shopify's behaviour by default
    const blocked = await shop.graphql<{ fileUpdate: { userErrors: { code: string }[] } }>(FILE_UPDATE, {
      files: [{ id: target.id, originalSource: resourceUrl }],
    });
    expect(blocked.body.data!.fileUpdate.userErrors[0]!.code).toBe('INVALID_FAILED_MEDIA_STATE');
    const ack = await shop.graphql<{ fileAcknowledgeUpdateFailed: { files: { fileStatus: string }[] } }>(
      'mutation A($ids: [ID!]!) { fileAcknowledgeUpdateFailed(fileIds: $ids) { files { fileStatus } userErrors { code message } } }',
      { ids: [target.id] },
    );
    expect(ack.body.data!.fileAcknowledgeUpdateFailed.files[0]!.fileStatus).toBe('READY');
    const accepted = await shop.graphql<{ fileUpdate: { userErrors: { code: string }[] } }>(FILE_UPDATE, {
      files: [{ id: target.id, originalSource: resourceUrl }],
    });
    expect(accepted.body.data!.fileUpdate.userErrors).toEqual([]);
    await shop.waitForFile(target.id);
  });

  it('enforces the filename extension rules', async () => {
    const [, , product] = await shop.products();
    const jpg = product!.media.find((m) => m.filename.endsWith('.jpg'))!;
    const rename = await shop.graphql<{ fileUpdate: { userErrors: { code: string }[] } }>(FILE_UPDATE, {
      files: [{ id: jpg.id, filename: 'renamed.png' }],
    });
    expect(rename.body.data!.fileUpdate.userErrors[0]!.code).toBe('INVALID_FILENAME_EXTENSION');
    const other = (await shop.files()).find((f) => f.id !== jpg.id && f.filename.endsWith('.jpg'))!;
    const taken = await shop.graphql<{ fileUpdate: { userErrors: { code: string }[] } }>(FILE_UPDATE, {
      files: [{ id: jpg.id, filename: other.filename }],
    });
    expect(taken.body.data!.fileUpdate.userErrors[0]!.code).toBe('FILENAME_ALREADY_EXISTS');
    const ok = await shop.graphql<{ fileUpdate: { files: { image: { url: string } }[] } }>(FILE_UPDATE, {
      files: [{ id: jpg.id, filename: 'tiger-snail.jpg' }],
    });
    expect(ok.body.data!.fileUpdate.files[0]!.image.url).toContain('/files/tiger-snail.jpg?v=');
    expect((await fetch(jpg.url)).status).toBe(200); // the old URL keeps answering
  });

  it('renames a file with new bytes of another format in the same update, and lets it take its old name back', async () => {
    const files = await shop.files();
    const png = files.find((f) => f.filename.endsWith('.png'))!;
    const pngBytes = await shop.fileBytes(png.id);
    const jpgBytes = await shop.fileBytes(files.find((f) => f.filename.endsWith('.jpg'))!.id);
    const jpgName = png.filename.replace(/\.png$/, '.jpg');
    const source = await stage(jpgName, 'image/jpeg', jpgBytes);
    // The schema: "extension must match the original" source (MISMATCHED_FILENAME_AND_ORIGINAL_SOURCE).
    const mismatched = await shop.graphql<{ fileUpdate: { userErrors: { code: string }[] } }>(FILE_UPDATE, {
      files: [{ id: png.id, originalSource: source, filename: png.filename }],
    });
    expect(mismatched.body.data!.fileUpdate.userErrors[0]!.code).toBe('MISMATCHED_FILENAME_AND_ORIGINAL_SOURCE');
    const converted = await shop.graphql<{ fileUpdate: { userErrors: unknown[] } }>(FILE_UPDATE, {
      files: [{ id: png.id, originalSource: source, filename: jpgName }],
    });
    expect(converted.body.data!.fileUpdate.userErrors).toEqual([]);
    const ready = await shop.waitForFile(png.id);
    expect(ready.filename).toBe(jpgName);
    expect(ready.sha256).toBe(await sha(jpgBytes));

    // Back to the PNG under its own former name (a restore): the name is this file's, so it is free for it.
    const pngSource = await stage(png.filename, 'image/png', pngBytes);
    const back = await shop.graphql<{ fileUpdate: { userErrors: unknown[] } }>(FILE_UPDATE, {
      files: [{ id: png.id, originalSource: pngSource, filename: png.filename }],
    });
    expect(back.body.data!.fileUpdate.userErrors).toEqual([]);
    expect((await shop.waitForFile(png.id)).filename).toBe(png.filename);
    // Another file still cannot take it.
    const other = files.find((f) => f.id !== png.id)!;
    const taken = await shop.graphql<{ fileUpdate: { userErrors: { code: string }[] } }>(FILE_UPDATE, {
      files: [{ id: other.id, filename: png.filename }],
    });
    expect(taken.body.data!.fileUpdate.userErrors[0]!.code).toBe('FILENAME_ALREADY_EXISTS');
  });

  it('collectionUpdate and articleUpdate replace images from a staged upload', async () => {
    const collection = (await shop.collections()).find((c) => c.image)!;
    const article = (await shop.articles()).find((a) => a.image)!;
    const bytes = await shop.fileBytes((await shop.files())[0]!.id);
    const colSrc = await stage(collection.image!.filename, 'image/jpeg', bytes);
    const col = await shop.graphql<{
      collectionUpdate: { collection: { image: { url: string; altText: string } }; userErrors: unknown[] };
    }>(
      'mutation C($input: CollectionInput!) { collectionUpdate(input: $input) { collection { id image { url altText } } userErrors { field message } } }',
      { input: { id: collection.id, image: { src: colSrc, altText: 'Collection alt' } } },
    );
    expect(col.body.data!.collectionUpdate.userErrors).toEqual([]);
    expect(col.body.data!.collectionUpdate.collection.image.altText).toBe('Collection alt');
    expect(
      await sha(new Uint8Array(await (await fetch(col.body.data!.collectionUpdate.collection.image.url)).arrayBuffer())),
    ).toBe(await sha(bytes));

    const artSrc = await stage('article.jpg', 'image/jpeg', bytes);
    const art = await shop.graphql<{
      articleUpdate: { article: { image: { url: string; altText: string } }; userErrors: unknown[] };
    }>(
      'mutation A($id: ID!, $article: ArticleUpdateInput!) { articleUpdate(id: $id, article: $article) { article { id image { url altText } } userErrors { code field message } } }',
      { id: article.id, article: { image: { url: artSrc, altText: 'Article alt' } } },
    );
    expect(art.body.data!.articleUpdate.userErrors).toEqual([]);
    expect((await shop.articles()).find((a) => a.id === article.id)!.image).toMatchObject({
      alt: 'Article alt',
      sha256: await sha(bytes),
    });
    const bad = await shop.graphql<{ collectionUpdate: { userErrors: unknown[] } }>(
      'mutation C($input: CollectionInput!) { collectionUpdate(input: $input) { userErrors { field message } } }',
      {
        input: { id: collection.id, image: { src: 'http://127.0.0.1:1/missing.jpg' } },
      },
    );
    expect(bad.body.data!.collectionUpdate.userErrors).toHaveLength(1);
  });

  it('fileCreate makes a Files-section image that has no image until processing ends', async () => {
    const bytes = await shop.fileBytes((await shop.files())[0]!.id);
    const src = await stage('upload-1.jpg', 'image/jpeg', bytes);
    const { body } = await shop.graphql<{ fileCreate: { files: { id: string; fileStatus: string; image: unknown }[] } }>(
      'mutation F($files: [FileCreateInput!]!) { fileCreate(files: $files) { files { id fileStatus ... on MediaImage { image { url } } } userErrors { code message } } }',
      { files: [{ originalSource: src, contentType: 'IMAGE', alt: 'Uploaded' }] },
    );
    const created = body.data!.fileCreate.files[0]!;
    expect(created.fileStatus).toBe('PROCESSING');
    expect(created.image).toBeNull();
    expect(await shop.waitForFile(created.id)).toMatchObject({
      status: 'READY',
      filename: 'upload-1.jpg',
      sha256: await sha(bytes),
      productIds: [],
    });
  });
});
