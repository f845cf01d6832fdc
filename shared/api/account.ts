// Responses of the session, account and settings-page calls (/api/v1 account calls, /api/v2/setting/*).

/** getSettingInfo: what every admin screen needs to know about the shop. */
export type SettingInfo = {
  shop_owner: string;
  shopname: string;
  name: string;
  email: string;
  user_id: number;
  shop_level: number;
  shopify_level: string;
  review: number;
  review_tips: number;
  is_old: number;
  language: string;
  new_guide_status: number;
  app_switch: AppSwitchState[];
  /** The app in the shop's Shopify admin (append an app path such as /pricing). */
  admin_url: string;
};
export type AppSwitchState = { name: string; st: number; at: number; exp: number };

/** GET /shopify/app: 302 with an in-app route when installed, 301 with Shopify's authorize URL. */
export type InstallLanding = { code: 301 | 302; url: string };

/** getSelectLanguage and updateLanguage answer the language at the top level and under data. */
export type LanguageAnswer = { language: string };
export type UserEmail = { email: string; name: string };
export type ContactSaved = { id: number };
export type ReviewSaved = { score: number; review_tips: number };
/** getUserSelectData: the merchant's UI choices, key -> latest value. */
export type UserSelections = Record<string, string>;
export type CustomerClickSaved = { key: string; value: string };

export type AdminTokenInfo = { id: number; user_id: string; created_at: number; expires_at: number; current: boolean };
/** POST /api/v1/adminToken. */
export type AdminTokenIssued = { authToken: string; expires_at: number };

/** getAccount: the overcharge switch and the plan's usage cap. */
export type AccountInfo = { is_over_quota: number; is_capped: number; shop_level: number; capped_amount: number };
export type AppSwitchName = 'is_over_quota' | 'extra_adver';
export type AppSwitchSaved = { name: AppSwitchName; st: 0 | 1; exp: number; is_over_quota: number; is_capped: number };

/** GET /app-config: runtime configuration the admin shows (null: none configured). */
export type AppConfig = {
  tutorial_video_url: string | null;
  privacy_contact_email: string | null;
  /** The optional support chat widget's https page (decisions.md "Support chat"). */
  support_chat_url: string | null;
  /** How many merchants the dashboard may claim; null: no claim (decisions.md "Claims"). */
  merchant_count: number | null;
  /** Our App Store listing, https://apps.shopify.com/<handle> (APP_STORE_HANDLE, else the app's handle). */
  app_store_url: string | null;
};

/** getRecommendedApps: the recommendations page's two tabs, in the shop's language. */
export type RecommendedApp = {
  name: string;
  description: string;
  rating: number;
  review_count: number;
  free: boolean;
  url: string;
};
export type Recommendations = { iframe: { title: string; url: string }; partner: { title: string }; apps: RecommendedApp[] };

/** Requests. */
export type ContactForm = { name: string; email: string; title: string; description: string; path?: string };
