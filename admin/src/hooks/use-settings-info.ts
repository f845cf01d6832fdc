import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useLayoutEffect, useState } from 'react';
import { getSettingInfo } from '../api/calls';
import { okAnswer, useApiQuery } from '../api/query';
import { settingInfoAtom } from '../state/atoms';

/** The shop's settingInfo once the shell has loaded it (null before). */
export const useSettingInfo = () => useAtomValue(settingInfoAtom);

// The shell reads settingInfo once per session (key ['settingInfo']). What the server changes later
// (review_tips once the first optimisation has finished, new_guide_status) is read again with these.

/** A function that reads settingInfo again and puts it in the atom (e.g. after an optimisation ended). */
export function useReloadSettingInfo(): () => Promise<void> {
  const client = useQueryClient();
  const setInfo = useSetAtom(settingInfoAtom);
  return useCallback(async () => {
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
 * settingInfo read again when a screen opens; `answered` once this read came back (or failed, keeping the
 * session's copy), so a screen can wait for it before painting what depends on it (no banner appears late).
 */
export function useFreshSettingInfo(): { info: ReturnType<typeof useSettingInfo>; answered: boolean } {
  const setInfo = useSetAtom(settingInfoAtom);
  const [openedAt] = useState(() => Date.now());
  const read = useApiQuery({ key: ['settingInfo'], call: getSettingInfo, select: (body) => body.data, errorToast: false });
  const fresh = read.data !== undefined && read.updatedAt >= openedAt;
  // Before paint: the screen that waited for this read paints with it.
  useLayoutEffect(() => {
    if (fresh && read.data) setInfo(read.data);
  }, [fresh, read.data, setInfo]);
  return { info: useSettingInfo(), answered: fresh || (!!read.error && !read.fetching) };
}
