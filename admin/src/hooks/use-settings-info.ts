import { useAtomValue } from 'jotai';
import { settingInfoAtom } from '../state/atoms';

/** The shop's settingInfo once the shell has loaded it (null before). */
export const useSettingInfo = () => useAtomValue(settingInfoAtom);
