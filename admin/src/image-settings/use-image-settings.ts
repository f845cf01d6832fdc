import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getSettings, saveSettings } from '../api/calls';
import { useApiAction, useApiQuery } from '../api/query';
import { useToast } from '../hooks/use-toast';
import {
  defaultImageSettings,
  readImageSettings,
  settingsRuleError,
  settingsRuleKey,
  settingsRuleMessage,
  type ImageSettings,
} from '../../../shared/image-settings';
import './strings';

/** The sections of the settings form, in screen order. */
export type SettingsSection = 'mode' | 'compress' | 'alt' | 'file';

/**
 * The section a refused save points at: the first one whose rule fails (compression scope or a missing
 * watermark picture are Optimize Images; an empty scope, an empty template or an unknown placeholder is
 * its own section).
 */
export function faultySection(s: ImageSettings, hasWatermark: boolean): SettingsSection | null {
  const scoped = (x: { product: number; collection: number; blogs: number }) =>
    x.product !== 0 || x.collection === 1 || x.blogs === 1;
  if (s.image_opt.switch === 1 && !scoped(s.image_opt)) return 'compress';
  if (settingsRuleError({ ...s, file_name: { ...s.file_name, switch: 0 } }, true) !== null) return 'alt';
  if (settingsRuleError(s, true) !== null) return 'file';
  if (settingsRuleError(s, hasWatermark) !== null) return 'compress';
  return null;
}

export type ImageSettingsState = {
  loading: boolean;
  draft: ImageSettings;
  setDraft: (next: ImageSettings) => void;
  /** Save is enabled only after a change and disabled again after a successful save. */
  dirty: boolean;
  /** A switched-on section has no scope: the warning shows beside it and Save stays disabled. */
  blocked: boolean;
  /** Save may be pressed: after a change, or on first use as it is (defaults accepted); never while blocked. */
  canSave: boolean;
  /** After a refused save: the section at fault (seq changes on every refusal, to scroll again). */
  fault: { section: SettingsSection; seq: number } | null;
  saving: boolean;
  showErrors: boolean;
  watermarkMissing: boolean;
  save: () => Promise<boolean>;
  reset: () => void;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Loads the shop's image settings, tracks the unsaved draft and saves it with the shared validation rules. */
export function useImageSettings(onSaved?: (saved: ImageSettings) => void): ImageSettingsState {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<ImageSettings>(defaultImageSettings);
  const [draft, setDraft] = useState<ImageSettings>(defaultImageSettings);
  const [showErrors, setShowErrors] = useState(false);
  const [fault, setFault] = useState<{ section: SettingsSection; seq: number } | null>(null);
  const refuse = useCallback((section: SettingsSection) => setFault((f) => ({ section, seq: (f?.seq ?? 0) + 1 })), []);

  // The stored settings become the saved state and the draft; an answer that does not parse says try again.
  const stored = useApiQuery({
    key: ['imageSettings'],
    call: getSettings,
    select: (body) => readImageSettings(body.data),
  });
  const loading = stored.loading;
  // A read that lands after the merchant started editing (the sheet shows the cached settings while it
  // reads them again) becomes the saved state but leaves their unsaved edits alone.
  const savedRef = useRef(saved);
  useEffect(() => {
    savedRef.current = saved;
  }, [saved]);
  useEffect(() => {
    const next = stored.data;
    if (next === undefined) return;
    if (next === null) return void toast(t('common.tryAgainLater'), { error: true });
    const before = savedRef.current;
    setDraft((d) => (same(d, before) ? next : d));
    savedRef.current = next;
    setSaved(next);
  }, [stored.data, t, toast]);

  const hasPicture = Boolean(draft.image_opt.watermark.file_data || draft.image_opt.watermark.logo);
  const watermarkMissing = draft.image_opt.switch === 1 && draft.image_opt.watermark.switch === 1 && !hasPicture;
  const dirty = useMemo(() => !same(saved, draft), [saved, draft]);
  const blocked = useMemo(() => settingsRuleKey(draft, true) === 'server.settings.needOneItem', [draft]);

  const send = useApiAction((settings: ImageSettings) => saveSettings(settings), {
    onSuccess: (body, sent) => {
      // The cached read becomes the saved settings: the sheet opened again shows them, not the old ones.
      queryClient.setQueryData(['imageSettings'], body);
      const next = readImageSettings(body.data) ?? { ...sent, is_default: 0 as const };
      setSaved(next);
      setDraft(next);
      setShowErrors(false);
      setFault(null);
      toast(t('common.saved'));
      onSaved?.(next);
    },
    // The server's own checks (e.g. a watermark picture it cannot read) point at Optimize Images unless
    // the local rules name another section; the toast says why.
    onRefused: (_body, sent) => {
      setShowErrors(true);
      refuse(faultySection(sent, Boolean(sent.image_opt.watermark.file_data || sent.image_opt.watermark.logo)) ?? 'compress');
      return false;
    },
  });
  const saving = send.pending;

  const save = useCallback(async () => {
    // The rules the Worker checks too: the same catalogue key reads the same in the merchant's language.
    const problem = settingsRuleMessage(draft, hasPicture);
    if (problem) {
      setShowErrors(true);
      refuse(faultySection(draft, hasPicture) ?? 'compress');
      toast(t(problem.message_key, problem.params), { error: true });
      return false;
    }
    return (await send.run(draft)) !== null;
  }, [draft, hasPicture, refuse, send, t, toast]);

  const canSave = !loading && (dirty || saved.is_default === 1) && !blocked;
  return {
    loading,
    draft,
    setDraft,
    dirty,
    blocked,
    canSave,
    fault,
    saving,
    showErrors,
    watermarkMissing,
    save,
    reset: () => setDraft(saved),
  };
}
