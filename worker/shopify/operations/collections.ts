import { throwOnUserErrors, type UserError } from '../errors';
import type { AdminClient } from '../graphql-client';
import type { ImageRef, Page } from './common';

export type CollectionWithImage = { id: string; title: string; handle: string; updatedAt: string; image: ImageRef | null };

const IMAGE_FIELDS = 'id url altText width height';

export const COLLECTIONS_PAGE = /* GraphQL */ `
  query CollectionsWithImage($first: Int!, $after: String, $query: String) {
    collections(first: $first, after: $after, query: $query, sortKey: ID) {
      pageInfo { hasNextPage endCursor }
      nodes { id title handle updatedAt image { ${IMAGE_FIELDS} } }
    }
  }
`;

export const COLLECTION_BY_ID = /* GraphQL */ `
  query CollectionWithImage($id: ID!) {
    collection(id: $id) { id title handle updatedAt image { ${IMAGE_FIELDS} } }
  }
`;

export const COLLECTION_UPDATE_IMAGE = /* GraphQL */ `
  mutation CollectionImageUpdate($collection: CollectionUpdateInput!) {
    collectionUpdate(collection: $collection) {
      collection { id updatedAt image { ${IMAGE_FIELDS} } }
      userErrors { field message }
    }
  }
`;

export async function getCollectionsPage(
  client: AdminClient,
  args: { first?: number; after?: string | null; query?: string } = {},
): Promise<Page<CollectionWithImage>> {
  const d = await client.request<{ collections: { pageInfo: Page<unknown>['pageInfo']; nodes: CollectionWithImage[] } }>(
    COLLECTIONS_PAGE,
    {
      first: args.first ?? 100,
      after: args.after ?? null,
      query: args.query ?? null,
    },
  );
  return { items: d.collections.nodes, pageInfo: d.collections.pageInfo };
}

export async function getCollection(client: AdminClient, id: string): Promise<CollectionWithImage | null> {
  return (await client.request<{ collection: CollectionWithImage | null }>(COLLECTION_BY_ID, { id })).collection;
}

/**
 * Replaces a collection's image: Shopify fetches `src` (a staged upload resourceUrl or a public URL)
 * and gives the collection a new image with `altText`.
 */
export async function updateCollectionImage(
  client: AdminClient,
  args: { id: string; src: string; altText?: string },
): Promise<CollectionWithImage> {
  const d = await client.request<{ collectionUpdate: { collection: CollectionWithImage | null; userErrors: UserError[] } }>(
    COLLECTION_UPDATE_IMAGE,
    {
      collection: { id: args.id, image: { src: args.src, ...(args.altText === undefined ? {} : { altText: args.altText }) } },
    },
  );
  throwOnUserErrors('collectionUpdate', d.collectionUpdate);
  if (!d.collectionUpdate.collection) throw new Error('collectionUpdate returned no collection');
  return d.collectionUpdate.collection;
}
