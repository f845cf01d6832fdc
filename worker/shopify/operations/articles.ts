import { throwOnUserErrors, type UserError } from '../errors';
import type { AdminClient } from '../graphql-client';
import type { ImageRef, Page } from './common';

export type ArticleWithImage = {
  id: string;
  title: string;
  handle: string;
  updatedAt: string;
  isPublished: boolean;
  blog: { id: string; title: string };
  image: ImageRef | null;
};

const IMAGE_FIELDS = 'id url altText width height';
const ARTICLE_FIELDS = `id title handle updatedAt isPublished blog { id title } image { ${IMAGE_FIELDS} }`;

export const ARTICLES_PAGE = /* GraphQL */ `
  query ArticlesWithImage($first: Int!, $after: String, $query: String) {
    articles(first: $first, after: $after, query: $query, sortKey: ID) {
      pageInfo { hasNextPage endCursor }
      nodes { ${ARTICLE_FIELDS} }
    }
  }
`;

export const ARTICLE_BY_ID = /* GraphQL */ `
  query ArticleWithImage($id: ID!) { article(id: $id) { ${ARTICLE_FIELDS} } }
`;

export const ARTICLE_UPDATE_IMAGE = /* GraphQL */ `
  mutation ArticleImageUpdate($id: ID!, $article: ArticleUpdateInput!) {
    articleUpdate(id: $id, article: $article) {
      article { ${ARTICLE_FIELDS} }
      userErrors { code field message }
    }
  }
`;

export async function getArticlesPage(
  client: AdminClient,
  args: { first?: number; after?: string | null; query?: string } = {},
): Promise<Page<ArticleWithImage>> {
  const d = await client.request<{ articles: { pageInfo: Page<unknown>['pageInfo']; nodes: ArticleWithImage[] } }>(
    ARTICLES_PAGE,
    {
      first: args.first ?? 100,
      after: args.after ?? null,
      query: args.query ?? null,
    },
  );
  return { items: d.articles.nodes, pageInfo: d.articles.pageInfo };
}

export async function getArticle(client: AdminClient, id: string): Promise<ArticleWithImage | null> {
  return (await client.request<{ article: ArticleWithImage | null }>(ARTICLE_BY_ID, { id })).article;
}

/** Replaces a blog article's image from `url` (staged upload resourceUrl or public URL) with `altText`. */
export async function updateArticleImage(
  client: AdminClient,
  args: { id: string; url: string; altText?: string },
): Promise<ArticleWithImage> {
  const d = await client.request<{ articleUpdate: { article: ArticleWithImage | null; userErrors: UserError[] } }>(
    ARTICLE_UPDATE_IMAGE,
    {
      id: args.id,
      article: { image: { url: args.url, ...(args.altText === undefined ? {} : { altText: args.altText }) } },
    },
  );
  throwOnUserErrors('articleUpdate', d.articleUpdate);
  if (!d.articleUpdate.article) throw new Error('articleUpdate returned no article');
  return d.articleUpdate.article;
}
