import type { createStore } from 'jotai';
import type { SettingInfo } from '../api/calls';
import { isOk } from '../../../shared/api/envelope';
import { isLanguageCode } from '../../../shared/languages';
import { i18next } from '../i18n';
import { GUIDE_OFFERED, isClosed } from '../lib/session-flags';
import { languageAtom, settingInfoAtom } from '../state/atoms';
import { polarisCatalogueReady } from './polaris-provider';

// What the first render of a screen starts from, the same in the Worker's render of it and in the
// browser's (issue 26: the browser hydrates the Worker's markup, so both renders must agree): the
// session's settings from the document's first reads (plan, guide state, the merchant's language) and
// that language's catalogues, loaded before the render.

/** The settings of a getSettingInfo answer the document carries, when it is a success. */
export function settingsOf(body: unknown): SettingInfo | null {
  if (body === undefined || !isOk(body)) return null;
  const data = (body as { data?: SettingInfo | null }).data;
  return data && typeof data === 'object' ? data : null;
}

/** The session's settings (and their language) into the store, as the shell's own read would put them. */
export function startWithSettings(store: ReturnType<typeof createStore>, info: SettingInfo): void {
  store.set(settingInfoAtom, info);
  if (isLanguageCode(info.language)) store.set(languageAtom, info.language);
}

/** Our catalogue and Polaris' of `language` loaded, and i18next switched to it. */
export async function languageReady(language: string): Promise<void> {
  await polarisCatalogueReady(language);
  await i18next.changeLanguage(language);
}

/**
 * The screen a document's path opens on, by the rules the screens apply once the settings are there: a
 * shop that has not finished the set-up wizard is sent from /main to the wizard on the tab session's first
 * launch (screens/main.tsx) and from /setting to the image page (screens/setting.tsx). Known before the
 * first render (the settings came with the document), the first render is that screen: the Worker renders
 * it and the browser goes there before rendering (main.tsx), instead of painting one screen to leave it.
 */
export function firstScreenPath(path: string, info: SettingInfo | null, wizardOffered = isClosed(GUIDE_OFFERED)): string {
  if (info?.new_guide_status !== 1) return path;
  if (path === '/main' && !wizardOffered) return '/guidance';
  if (path === '/setting') return '/image_optimisation';
  return path;
}
