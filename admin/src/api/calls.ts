import { get, postForm, postJson, type AckEnvelope, type V1Envelope } from './client';

// Every documented call of both specifications, in one place (image-optimisation.md section 7 and
// page-speed-and-app.md section 7). Screens call these; none of them builds a URL by hand.

// ---- session and install ---------------------------------------------------------------------
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
  app_switch: { name: string; st: number; at: number; exp: number }[];
};

/** The launch query goes to the Worker verbatim (`?` included): Shopify's HMAC covers every parameter it sent. */
export const installLanding = (search: string) => get<{ code: number; url: string }>(`/shopify/app${search}`);
export const getSettingInfo = () => get<V1Envelope<SettingInfo>>('/api/v1/getSettingInfo');

// ---- language, account, contact, review ---------------------------------------------------------
export const getSelectLanguage = () => get<V1Envelope & { language: string }>('/api/v1/getSelectLanguage');
export const updateLanguage = (Language: string) => postForm<V1Envelope>('/api/v1/updateLanguage', { Language });
export const getThisUserEmail = () => get<V1Envelope<{ email: string; name: string }>>('/api/v1/getThisUserEmail');
export const insertContactUs = (form: { name: string; email: string; title: string; description: string; path?: string }) =>
  postForm<V1Envelope>('/api/v1/insertContactUs', form);
/** The "contact support" log of a quota-increase request: where it was made and what was asked. */
export const insertContactLog = (path: string, content: string) => postForm<V1Envelope<{ id: number }>>('/api/v1/insertContactLog', { path, content });
export const reviewTipsClick = (score: number) => postForm<V1Envelope>('/api/v1/reviewTipsClick', { score });
export const getUserSelectData = () => get<V1Envelope<Record<string, string>>>('/api/v1/getUserSelectData');
export const updateCustomerClick = (key: string, value = '1') => postForm<V1Envelope>('/api/v1/updateCustomerClick', { key, value });
export type AdminTokenInfo = { id: number; user_id: string; created_at: number; expires_at: number; current: boolean };
export const getAdminTokens = () => get<AckEnvelope<AdminTokenInfo[]>>('/api/v2/setting/getAdminTokens');
export const revokeAdminToken = (id: number) => postForm<AckEnvelope>('/api/v2/setting/revokeAdminToken', { id });
export const getAccount = () => get<AckEnvelope<{ is_over_quota: number; is_capped: number }>>('/api/v2/setting/getAccount');
export const saveAppSwitch = (name: 'is_over_quota' | 'extra_adver', st: 0 | 1, exp = 0) =>
  postForm<AckEnvelope>('/api/v2/setting/saveAppSwitch', { name, st, exp, type: 'param' });
export const getRecommendations = () => get<V1Envelope>('/api/v1/getRecommendedApps');

// ---- pricing and plans ------------------------------------------------------------------------
export const getPricingPlans = () => get<V1Envelope>('/api/v1/getPricingPlans');
export const changePlans = (newLevel: number) => postForm<V1Envelope & { url?: string }>('/api/v1/changePlans', { newLevel });
/** The usage cap would be exceeded: asks Shopify for the next cap; the merchant approves at `url`. */
export const raiseOverageCap = () => postForm<V1Envelope & { url?: string }>('/api/v1/raiseOverageCap', {});
export const getImageSyncStatus = () => get<V1Envelope<{ imageSync: boolean; imageCount: number }>>('/api/v1/getImageSyncStatus');

// ---- wizard and settings ----------------------------------------------------------------------
export const saveNewGuideCfg = (payload: unknown) => postJson<AckEnvelope>('/api/v1/saveNewGuideCfg', payload);
export const getAppDashboardData = () => get<V1Envelope>('/api/v1/getAppDashboardData');
export const getAppSettingData = () => get<V1Envelope>('/api/v1/getAppSettingData');
export const updateAppSettingDataNew = (settings: Record<string, unknown>) =>
  postForm<V1Envelope>('/api/v1/updateAppSettingDataNew', settings);
export const getSettings = () => get<AckEnvelope>('/api/v2/image-opt/getSettings');
export const saveSettings = (settings: unknown) => postJson<AckEnvelope>('/api/v2/image-opt/saveSettings', settings);

// ---- image optimisation ----------------------------------------------------------------------
export const getImgOptTotal = () => get<AckEnvelope>('/api/v2/image-opt/getImgOptTotal');
export const getImageOptDataPage = (q: { page: number; pageSize: number; title?: string; data_type: number; page_type: 0 | 1 }) =>
  get<AckEnvelope<{ data: unknown[]; current_page: number; per_page: number; total: number }>>('/api/v2/image-opt/getImageOptDataPage', q);
export const getProductImagesData = (q: { prod_id: number | string; page: number; pageSize: number; data_type?: number }) =>
  get<AckEnvelope<{ data: unknown[]; current_page: number; per_page: number; total: number }>>('/api/v2/image-opt/getProductImagesData', q);
export const getOptSchedule = (data_type?: number) => get<AckEnvelope>('/api/v2/image-opt/getOptSchedule', { data_type });
export const stopImageOptTask = () => get<AckEnvelope>('/api/v2/image-opt/stopImageOptTask');
export const updateIsDownload = (opt_id: number) => postForm<AckEnvelope>('/api/v2/image-opt/updateIsDownload', { opt_id });
export const uploadImagesOpt = (payload: { file_list: { name: string; data: string; type: string }[]; opt_cfg: { pngtojpg: number; is_watermark: number } }) =>
  postJson<AckEnvelope>('/api/v2/image-opt/uploadImagesOpt', payload);
export const restore = (payload: { data_type: number; data_list: { data_id: number; img_ids?: number[]; blog_id?: string; restore_type?: '' | 'all' }[] }) =>
  postJson<AckEnvelope>('/api/v2/image-opt/restore', payload);
export const reOptimize = (payload: { data_type: number; data_list: { data_id: number; img_ids?: number[] }[]; re_opt_type: '' | 'all'; page_type: number }) =>
  postJson<AckEnvelope>('/api/v2/image-opt/reOptimize', payload);

// ---- page speed ------------------------------------------------------------------------------
export const checkThemeAppExtension = () => get<AckEnvelope<{ url: string; status: number }>>('/api/v2/home/checkThemeAppExtension');
export const getPageSpeedScore = () => get<AckEnvelope & { score?: { pc: number; mb: number }; status?: number }>('/api/v2/home/getPageSpeedScore');
export const refreshPageSpeedOnline = () => postForm<AckEnvelope>('/api/v2/home/refreshPageSpeedOnline');
