// Global emulator state: the app it knows, every shop, tokens, staged uploads and the CDN path index.
import type { WebhookTarget } from '../app-toml';
import { DEFAULT_SETTINGS, type ShopState } from './shop-state';
import type { Blob } from './types';

export type AppConfig = {
  apiKey: string;
  apiSecret: string;
  /** The app's URL (APP_URL): install landing, OAuth redirect and default webhook target live under it. */
  appUrl: string;
  /** The app's handle, as in `shopify://apps/<handle>/blocks/...` theme block types. */
  handle: string;
  /** Scopes granted when the app is installed through token exchange (shopify.app.toml's access_scopes). */
  scopes: string[];
  /** The app's webhook subscriptions, resolved from shopify.app.toml against appUrl (startEmulator fills it). */
  webhooks?: WebhookTarget[];
};

export type AccessToken = { token: string; shop: string; scopes: string[]; expiresAt: number | null; kind: 'offline' | 'online' };
export type RefreshToken = { token: string; shop: string; scopes: string[]; expiresAt: number };
export type AuthCode = { code: string; shop: string; scopes: string[]; expiresAt: number; used: boolean };
export type StagedUpload = {
  key: string;
  shop: string;
  filename: string;
  mimeType: string;
  blob: Blob | null;
  createdAt: number;
};

export type PageSpeedMode = 'ok' | 'rate-limited' | 'password' | 'unreachable' | 'error';
export type PageSpeedRule = { mode: PageSpeedMode; desktop?: number; mobile?: number; delayMs?: number; remaining?: number };

export type Emulator = {
  origin: string;
  app: AppConfig;
  shops: Map<string, ShopState>;
  accessTokens: Map<string, AccessToken>;
  refreshTokens: Map<string, RefreshToken>;
  authCodes: Map<string, AuthCode>;
  stagedUploads: Map<string, StagedUpload>;
  /** `/cdn.shopify.com/s/files/...` path -> what it serves. Old paths stay after a rename, like Shopify's. */
  cdnPaths: Map<string, CdnEntry>;
  /** PageSpeed behaviour per storefront host ('*' for any). */
  pageSpeed: Map<string, PageSpeedRule>;
  pageSpeedCalls: { url: string; strategy: string; at: string; status: number }[];
  nextId: () => number;
  defaultSettings: typeof DEFAULT_SETTINGS;
};

export type CdnEntry =
  | { shop: string; kind: 'file'; id: number }
  | { shop: string; kind: 'collection' | 'article'; id: number }
  | { shop: string; kind: 'bulk'; id: number };

export function createEmulator(origin: string, app: AppConfig): Emulator {
  let id = 1_000_000_000 + Math.floor(Math.random() * 1000) * 1_000_000;
  return {
    origin,
    app,
    shops: new Map(),
    accessTokens: new Map(),
    refreshTokens: new Map(),
    authCodes: new Map(),
    stagedUploads: new Map(),
    cdnPaths: new Map(),
    pageSpeed: new Map(),
    pageSpeedCalls: [],
    nextId: () => ++id,
    defaultSettings: { ...DEFAULT_SETTINGS },
  };
}

export function isoNow(offsetMs = 0): string {
  return new Date(Date.now() + offsetMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
