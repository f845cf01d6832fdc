import { atom, createStore } from 'jotai';
import type { SettingInfo } from '../api/calls';
import type { LanguageCode } from '../../../shared/languages';

/** The one jotai store of the admin (also handed to the router context and tests). */
export const store = createStore();

/** settingInfo from /api/v1/getSettingInfo; null until loaded. */
export const settingInfoAtom = atom<SettingInfo | null>(null);
export const languageAtom = atom<LanguageCode>('en');
/** shop_level: 0 free, 1-6 paid. */
export const levelAtom = atom((get) => get(settingInfoAtom)?.shop_level ?? 0);
export const isOldAtom = atom((get) => (get(settingInfoAtom)?.is_old ?? 0) === 1);
