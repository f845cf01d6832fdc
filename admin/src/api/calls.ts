import { get, postForm, postJson } from './client';
import type {
  AccountInfo,
  AdminTokenInfo,
  AdminTokenIssued,
  AppSwitchName,
  AppSwitchSaved,
  ContactForm,
  ContactSaved,
  CustomerClickSaved,
  InstallLanding,
  LanguageAnswer,
  Recommendations,
  ReviewSaved,
  SettingInfo,
  UserEmail,
  UserSelections,
} from '../../../shared/api/account';
import type { CapRaise, ImageSyncStatus, PlanChange, PricingData } from '../../../shared/api/billing';
import type { AckEnvelope, V1Envelope } from '../../../shared/api/envelope';
import type {
  DownloadMarked,
  HistoryPage,
  HistoryQuery,
  ImgOptTotal,
  ItemImagesPage,
  ItemImagesQuery,
  PlannedJob,
  ReOptimizeRequest,
  RestoreRequest,
  Schedule,
  SchedulesByTab,
  StopAnswer,
  UploadAnswer,
  UploadRequest,
} from '../../../shared/api/image-opt';
import type { EmbedStatus, ScoreAnswer, ScoreHistory } from '../../../shared/api/page-speed';
import type { DashboardInit, ImageSettings, LegacyView, TemplateSample } from '../../../shared/api/settings';

// Every documented call of both specifications, in one place, typed by the contract in shared/api/ (the
// Worker's routes answer the same types). Screens call these through the data layer (api/query.tsx);
// none of them builds a URL by hand.

export type { AdminTokenInfo, SettingInfo };

// ---- session and install ---------------------------------------------------------------------
/** The launch query goes to the Worker verbatim (`?` included): Shopify's HMAC covers every parameter it sent. */
export const installLanding = (search: string) => get<InstallLanding>(`/shopify/app${search}`);
export const getSettingInfo = () => get<V1Envelope<SettingInfo>>('/api/v1/getSettingInfo');

// ---- language, account, contact, review ---------------------------------------------------------
export const getSelectLanguage = () => get<V1Envelope<LanguageAnswer> & LanguageAnswer>('/api/v1/getSelectLanguage');
export const updateLanguage = (Language: string) => postForm<V1Envelope<LanguageAnswer>>('/api/v1/updateLanguage', { Language });
export const getThisUserEmail = () => get<V1Envelope<UserEmail>>('/api/v1/getThisUserEmail');
export const insertContactUs = (form: ContactForm) => postForm<V1Envelope<ContactSaved>>('/api/v1/insertContactUs', form);
/** The "contact support" log of a quota-increase request: where it was made and what was asked. */
export const insertContactLog = (path: string, content: string) =>
  postForm<V1Envelope<ContactSaved>>('/api/v1/insertContactLog', { path, content });
export const reviewTipsClick = (score: number) => postForm<V1Envelope<ReviewSaved>>('/api/v1/reviewTipsClick', { score });
export const getUserSelectData = () => get<V1Envelope<UserSelections>>('/api/v1/getUserSelectData');
export const updateCustomerClick = (key: string, value = '1') =>
  postForm<V1Envelope<CustomerClickSaved>>('/api/v1/updateCustomerClick', { key, value });
export const getAdminTokens = () => get<AckEnvelope<AdminTokenInfo[]>>('/api/v2/setting/getAdminTokens');
/** A new admin token for the Shopify user of the session token (only inside the admin). */
export const createAdminToken = () => postForm<V1Envelope<AdminTokenIssued>>('/api/v1/adminToken', {});
export const revokeAdminToken = (id: number) => postForm<AckEnvelope>('/api/v2/setting/revokeAdminToken', { id });
export const getAccount = () => get<AckEnvelope<AccountInfo>>('/api/v2/setting/getAccount');
export const saveAppSwitch = (name: AppSwitchName, st: 0 | 1, exp = 0) =>
  postForm<AckEnvelope<AppSwitchSaved>>('/api/v2/setting/saveAppSwitch', { name, st, exp, type: 'param' });
export const getRecommendations = () => get<V1Envelope<Recommendations>>('/api/v1/getRecommendedApps');

// ---- pricing and plans ------------------------------------------------------------------------
export const getPricingPlans = () => get<V1Envelope<PricingData>>('/api/v1/getPricingPlans');
export const changePlans = (newLevel: number) =>
  postForm<V1Envelope<PlanChange> & { url?: string }>('/api/v1/changePlans', { newLevel });
/** The usage cap would be exceeded: asks Shopify for the next cap; the merchant approves at `url`. */
export const raiseOverageCap = () => postForm<V1Envelope<CapRaise> & { url?: string }>('/api/v1/raiseOverageCap', {});
export const getImageSyncStatus = () => get<V1Envelope<ImageSyncStatus>>('/api/v1/getImageSyncStatus');

// ---- wizard and settings ----------------------------------------------------------------------
export const saveNewGuideCfg = (payload: { page5?: { day_backup: number }; settings: unknown }) =>
  postJson<AckEnvelope<ImageSettings> & V1Envelope<ImageSettings>>('/api/v1/saveNewGuideCfg', payload);
export const getAppDashboardData = () =>
  get<V1Envelope<LegacyView> & { initData?: DashboardInit }>('/api/v1/getAppDashboardData');
export const getAppSettingData = () => get<V1Envelope<LegacyView>>('/api/v1/getAppSettingData');
export const updateAppSettingDataNew = (settings: Record<string, unknown>) =>
  postForm<V1Envelope<LegacyView>>('/api/v1/updateAppSettingDataNew', settings);
export const getSettings = () => get<AckEnvelope<ImageSettings>>('/api/v2/image-opt/getSettings');
export const saveSettings = (settings: Partial<ImageSettings>) =>
  postJson<AckEnvelope<ImageSettings>>('/api/v2/image-opt/saveSettings', settings);
/** One real product, collection and blog post of the shop for the template live preview. */
export const getTemplateSample = () => get<AckEnvelope<TemplateSample>>('/api/v2/image-opt/getTemplateSample');

// ---- image optimisation ----------------------------------------------------------------------
/** Statistics, settings and quota: documented at the top level, and the same object under data. */
export const getImgOptTotal = () => get<AckEnvelope<ImgOptTotal> & Partial<ImgOptTotal>>('/api/v2/image-opt/getImgOptTotal');
export const getImageOptDataPage = (q: HistoryQuery) => get<AckEnvelope<HistoryPage>>('/api/v2/image-opt/getImageOptDataPage', q);
export const getProductImagesData = (q: ItemImagesQuery) =>
  get<AckEnvelope<ItemImagesPage>>('/api/v2/image-opt/getProductImagesData', q);
/** With data_type: that tab's schedule; without: one per tab. */
export function getOptSchedule(): Promise<AckEnvelope<SchedulesByTab>>;
export function getOptSchedule(data_type: number): Promise<AckEnvelope<Schedule>>;
export function getOptSchedule(data_type?: number) {
  return get<AckEnvelope<Schedule | SchedulesByTab>>('/api/v2/image-opt/getOptSchedule', { data_type });
}
export const stopImageOptTask = () => get<AckEnvelope<StopAnswer>>('/api/v2/image-opt/stopImageOptTask');
export const updateIsDownload = (opt_id: number) =>
  postForm<AckEnvelope<DownloadMarked>>('/api/v2/image-opt/updateIsDownload', { opt_id });
export const uploadImagesOpt = (payload: UploadRequest) =>
  postJson<AckEnvelope<UploadAnswer>>('/api/v2/image-opt/uploadImagesOpt', payload);
export const restore = (payload: RestoreRequest) => postJson<AckEnvelope<PlannedJob>>('/api/v2/image-opt/restore', payload);
export const reOptimize = (payload: ReOptimizeRequest) =>
  postJson<AckEnvelope<PlannedJob>>('/api/v2/image-opt/reOptimize', payload);

// ---- page speed ------------------------------------------------------------------------------
export const checkThemeAppExtension = () => get<AckEnvelope<EmbedStatus>>('/api/v2/home/checkThemeAppExtension');
/** Score and status at the top level, as documented (no data). */
export const getPageSpeedScore = () => get<Omit<AckEnvelope, 'message'> & Partial<ScoreAnswer>>('/api/v2/home/getPageSpeedScore');
export const refreshPageSpeedOnline = () => postForm<AckEnvelope>('/api/v2/home/refreshPageSpeedOnline');
/** The last finished checks, oldest first (the dashboard's score history). */
export const getPageSpeedHistory = () => get<AckEnvelope<ScoreHistory>>('/api/v2/home/getPageSpeedHistory');
