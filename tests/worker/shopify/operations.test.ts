import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { ShopifyQueryCostError, ShopifyUserError } from '../../../worker/shopify/errors';
import { createAdminClient } from '../../../worker/shopify/graphql-client';
import { signedQueryMessage, missingScopes } from '../../../worker/install/oauth';
import { assembleBulkProducts } from '../../../worker/shopify/operations/bulk';
import { numericId } from '../../../worker/shopify/operations/common';
import { updateFile, waitForFileReady } from '../../../worker/shopify/operations/files';
import { getProductsPage, productsPageCost } from '../../../worker/shopify/operations/products';
import { CostBucket } from '../../../worker/shopify/throttle';
import { installFakeShopify } from './fake-shopify';

let fake: ReturnType<typeof installFakeShopify> | undefined;
afterEach(() => fake?.restore());

describe('signed query message', () => {
  it('drops hmac and signature, sorts keys and renders repeated ids[] as Shopify does', () => {
    const q = new URLSearchParams('shop=a.myshopify.com&timestamp=1&hmac=x&signature=y&ids[]=2&ids[]=1&host=h');
    expect(signedQueryMessage(q)).toBe('host=h&ids=["2", "1"]&shop=a.myshopify.com&timestamp=1');
  });
  it('write scopes imply read scopes', () => {
    expect(missingScopes('write_products,read_themes', 'read_products,write_products,read_themes,write_files')).toEqual([
      'write_files',
    ]);
  });
});

describe('bulk JSONL assembly', () => {
  it('attaches the first variant and the image media to their product, skipping videos', () => {
    const products = assembleBulkProducts([
      {
        id: 'gid://shopify/Product/1',
        title: 'P1',
        handle: 'p1',
        vendor: 'V',
        productType: 'T',
        status: 'DRAFT',
        publishedAt: null,
        updatedAt: 'u',
      },
      { id: 'gid://shopify/ProductVariant/11', title: 'Small', price: '9.50', __parentId: 'gid://shopify/Product/1' },
      { id: 'gid://shopify/ProductVariant/12', title: 'Large', price: '12.00', __parentId: 'gid://shopify/Product/1' },
      {
        id: 'gid://shopify/MediaImage/21',
        alt: 'a',
        status: 'READY',
        mediaContentType: 'IMAGE',
        mimeType: 'image/png',
        image: { url: 'https://cdn/x.png', width: 10, height: 20 },
        originalSource: { fileSize: '1234' },
        __parentId: 'gid://shopify/Product/1',
      },
      { id: 'gid://shopify/Video/22', mediaContentType: 'VIDEO', __parentId: 'gid://shopify/Product/1' },
      {
        id: 'gid://shopify/Product/2',
        title: 'P2',
        handle: 'p2',
        vendor: '',
        productType: '',
        status: 'ACTIVE',
        publishedAt: '2026-01-01T00:00:00Z',
        updatedAt: 'u',
      },
    ]);
    expect(products).toHaveLength(2);
    expect(products[0]).toMatchObject({ status: 'DRAFT', isPublished: false, firstVariant: { title: 'Small', price: '9.50' } });
    expect(products[0]!.media).toEqual([
      {
        id: 'gid://shopify/MediaImage/21',
        alt: 'a',
        status: 'READY',
        url: 'https://cdn/x.png',
        width: 10,
        height: 20,
        mimeType: 'image/png',
        fileSize: 1234,
        updatedAt: null,
      },
    ]);
    expect(products[1]).toMatchObject({ isPublished: true, firstVariant: null, media: [] });
    expect(numericId('gid://shopify/Product/632910392')).toBe('632910392');
  });
});

describe('file processing', () => {
  const client = () => createAdminClient({ env, shopDomain: 'files.myshopify.com', token: 't', bucket: new CostBucket() });

  it('polls until READY', async () => {
    let polls = 0;
    fake = installFakeShopify({
      graphql: () => ({
        data: {
          node: {
            id: 'gid://shopify/MediaImage/1',
            alt: '',
            fileStatus: ++polls < 3 ? 'PROCESSING' : 'READY',
            fileErrors: [],
            image: { url: 'https://cdn/a.jpg' },
          },
        },
      }),
    });
    const state = await waitForFileReady(client(), 'gid://shopify/MediaImage/1', { intervalMs: 10 });
    expect(state).toMatchObject({ fileStatus: 'READY', url: 'https://cdn/a.jpg' });
    expect(polls).toBe(3);
  });

  it('a FAILED file is a ShopifyUserError carrying Shopify’s fileErrors', async () => {
    fake = installFakeShopify({
      graphql: () => ({
        data: {
          node: {
            id: 'x',
            alt: '',
            fileStatus: 'FAILED',
            fileErrors: [{ code: 'IMAGE_PROCESSING_FAILURE', details: null, message: 'Image could not be processed' }],
          },
        },
      }),
    });
    const err = await waitForFileReady(client(), 'x', { intervalMs: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ShopifyUserError);
    expect((err as ShopifyUserError).message).toContain('Image could not be processed');
  });

  it('a FAILED file is acknowledged (fileAcknowledgeUpdateFailed) before FILE_FAILED is thrown', async () => {
    const calls: { query: string; variables: Record<string, unknown> }[] = [];
    fake = installFakeShopify({
      graphql: (call) => {
        calls.push(call);
        if (call.query.includes('fileAcknowledgeUpdateFailed'))
          return {
            data: {
              fileAcknowledgeUpdateFailed: { files: [{ id: 'gid://shopify/MediaImage/7', fileStatus: 'READY' }], userErrors: [] },
            },
          };
        return { data: { node: { id: 'gid://shopify/MediaImage/7', alt: '', fileStatus: 'FAILED', fileErrors: [] } } };
      },
    });
    const err = await waitForFileReady(client(), 'gid://shopify/MediaImage/7', { intervalMs: 10 }).catch((e: unknown) => e);
    expect((err as ShopifyUserError).codes).toEqual(['FILE_FAILED']);
    const ack = calls.find((c) => c.query.includes('fileAcknowledgeUpdateFailed'));
    expect(ack?.variables).toEqual({ fileIds: ['gid://shopify/MediaImage/7'] });
  });

  it('fileUpdate refused with INVALID_FAILED_MEDIA_STATE acknowledges the failure and is sent again once', async () => {
    let updates = 0;
    let acks = 0;
    fake = installFakeShopify({
      graphql: (call) => {
        if (call.query.includes('fileAcknowledgeUpdateFailed')) {
          acks += 1;
          return { data: { fileAcknowledgeUpdateFailed: { files: [], userErrors: [] } } };
        }
        updates += 1;
        if (acks === 0)
          return {
            data: {
              fileUpdate: {
                files: null,
                userErrors: [
                  {
                    field: ['files', '0', 'id'],
                    message: 'File cannot be updated in a failed state.',
                    code: 'INVALID_FAILED_MEDIA_STATE',
                  },
                ],
              },
            },
          };
        return {
          data: {
            fileUpdate: {
              files: [{ id: 'gid://shopify/MediaImage/7', alt: 'a', fileStatus: 'UPLOADED', fileErrors: [] }],
              userErrors: [],
            },
          },
        };
      },
    });
    const state = await updateFile(client(), { id: 'gid://shopify/MediaImage/7', originalSource: 'https://staged/x', alt: 'a' });
    expect(state.fileStatus).toBe('UPLOADED');
    expect({ updates, acks }).toEqual({ updates: 2, acks: 1 });
  });
});

describe('query cost', () => {
  const client = () => createAdminClient({ env, shopDomain: 'cost.myshopify.com', token: 't', bucket: new CostBucket() });

  it('a products page by default asks for less than Shopify’s 1,000-point limit', async () => {
    const sent: Record<string, unknown>[] = [];
    fake = installFakeShopify({
      graphql: (call) => (
        sent.push(call.variables),
        { data: { products: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] } } }
      ),
    });
    await getProductsPage(client());
    const { first, mediaFirst } = sent[0] as { first: number; mediaFirst: number };
    expect(productsPageCost(first, mediaFirst)).toBeLessThanOrEqual(750);
    expect(first).toBeGreaterThanOrEqual(10);
  });

  it('a page whose estimated cost exceeds 1,000 is refused before it is sent (MAX_COST_EXCEEDED)', async () => {
    fake = installFakeShopify({
      graphql: () => ({ data: { products: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] } } }),
    });
    const err = await getProductsPage(client(), { first: 50, mediaFirst: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ShopifyQueryCostError);
    expect((err as ShopifyQueryCostError).codes).toEqual(['MAX_COST_EXCEEDED']);
    expect((err as ShopifyQueryCostError).cost).toBe(7952);
    expect(fake.stats.graphql).toBe(0);
  });
});

describe('Shopify URLs', () => {
  it('production goes to https://<host>; with SHOPIFY_ORIGIN the host is the first path segment', async () => {
    const { graphqlUrl, shopifyHostUrl, SHOPIFY_API_VERSION } = await import('../../../worker/shopify/api-version');
    expect(graphqlUrl({ SHOPIFY_ORIGIN: '' }, 'a.myshopify.com')).toBe(
      `https://a.myshopify.com/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
    );
    expect(graphqlUrl({ SHOPIFY_ORIGIN: 'http://127.0.0.1:8788/' }, 'a.myshopify.com')).toBe(
      `http://127.0.0.1:8788/a.myshopify.com/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
    );
    expect(shopifyHostUrl({ SHOPIFY_ORIGIN: '' }, 'admin.shopify.com/store/a')).toBe('https://admin.shopify.com/store/a');
  });
});
