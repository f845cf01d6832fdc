import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useState } from 'react';
import { getSettingInfo } from '../api/calls';
import { dropFirstReads } from '../api/client';
import { takeEarlySettingInfo } from '../api/early';
import { okAnswer, useApiQuery } from '../api/query';
import { settingInfoAtom } from '../state/atoms';
import { SETTING_INFO } from '../../../shared/api/first-reads';
import { useLayoutEffectInBrowser } from './use-layout-effect';

/** The shop's settingInfo once the shell has loaded it (null before). */
export const useSettingInfo = () => useAtomValue(settingInfoAtom);

// The shell reads settingInfo once per session (key ['settingInfo']). What the server changes later
// (review_tips once the first optimisation has finished, new_guide_status) is read again with these.

/** A function that reads settingInfo again and puts it in the atom (e.g. after an optimisation ended). */
export function useReloadSettingInfo(): () => Promise<void> {
  const client = useQueryClient();
  const setInfo = useSetAtom(settingInfoAtom);
  return useCallback(async () => {
    // The server's answer now, never the document's (main.tsx only looked at it: it may still be there).
    dropFirstReads(SETTING_INFO);
    try {
      const body = await client.fetchQuery({
        queryKey: ['settingInfo'],
        queryFn: () => okAnswer(getSettingInfo()),
        staleTime: 0,
      });
      if (body.data) setInfo(body.data);
    } catch {
      // The session's copy stays; the next screen reads again.
    }
  }, [client, setInfo]);
}

/**
 * How old a settingInfo answer may be and still count as this visit's: the session's first read, which
 * the shell made a moment before the page's first screen opened (issue 26: on a phone a second read
 * cost the dashboard a round trip before it painted), or a screen left and opened again at once.
 */
export const FRESH_SETTING_INFO_MS = 5000;

/**
 * settingInfo read again when a screen opens (unless an answer of the last FRESH_SETTING_INFO_MS is
 * there); `answered` once this visit's answer is there (or the read failed, keeping the session's copy),
 * so a screen can wait for it before painting what depends on it (no banner appears late).
 */
export function useFreshSettingInfo(): { info: ReturnType<typeof useSettingInfo>; answered: boolean } {
  const setInfo = useSetAtom(settingInfoAtom);
  const [openedAt] = useState(() => Date.now());
  const read = useApiQuery({
    key: ['settingInfo'],
    // The page's first screen may mount before the shell asks: it takes the session's first read then.
    call: () => takeEarlySettingInfo() ?? getSettingInfo(),
    select: (body) => body.data,
    errorToast: false,
    reuseForMs: FRESH_SETTING_INFO_MS,
  });
  const fresh = read.data !== undefined && read.updatedAt >= openedAt - FRESH_SETTING_INFO_MS;
  // Before paint: the screen that waited for this read paints with it.
  useLayoutEffectInBrowser(() => {
    if (fresh && read.data) setInfo(read.data);
  }, [fresh, read.data, setInfo]);
  return { info: useSettingInfo(), answered: fresh || (!!read.error && !read.fetching) };
}
