import type { AdminClient } from '../graphql-client';

export type MainThemeSettings = { themeId: string; themeName: string; content: string | null };

export const MAIN_THEME_SETTINGS = /* GraphQL */ `
  query MainThemeSettingsData {
    themes(first: 1, roles: [MAIN]) {
      nodes {
        id
        name
        files(filenames: ["config/settings_data.json"], first: 1) {
          nodes {
            filename
            body {
              ... on OnlineStoreThemeFileBodyText { content }
              ... on OnlineStoreThemeFileBodyBase64 { contentBase64 }
            }
          }
        }
      }
    }
  }
`;

type Data = {
  themes: {
    nodes: {
      id: string;
      name: string;
      files: { nodes: { filename: string; body: { content?: string; contentBase64?: string } }[] };
    }[];
  };
};

/**
 * The main (published) theme's config/settings_data.json as text; null content when the theme has no
 * such file. Null when the shop has no main theme. The app embed's state lives in its "blocks".
 */
export async function getMainThemeSettingsData(client: AdminClient): Promise<MainThemeSettings | null> {
  const d = await client.request<Data>(MAIN_THEME_SETTINGS);
  const theme = d.themes.nodes[0];
  if (!theme) return null;
  const body = theme.files.nodes[0]?.body;
  let content: string | null = body?.content ?? null;
  if (content == null && body?.contentBase64)
    content = new TextDecoder().decode(Uint8Array.from(atob(body.contentBase64), (c) => c.charCodeAt(0)));
  return { themeId: theme.id, themeName: theme.name, content };
}
