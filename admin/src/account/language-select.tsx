import { Select } from '@shopify/polaris';
import { useAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateLanguage } from '../api/calls';
import { isOk, messageOf } from '../api/client';
import { useToast } from '../hooks/use-toast';
import { i18next } from '../i18n';
import { languageAtom, settingInfoAtom } from '../state/atoms';
import { isLanguageCode, LANGUAGES } from '../../../shared/languages';

/**
 * The 21-language selector (dashboard dropdown and Settings > Account). The interface switches at once;
 * the choice is saved with updateLanguage (code 200 confirms it); on failure the previous language
 * comes back with the server's message.
 */
export function LanguageSelect({ labelHidden = false }: { labelHidden?: boolean }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [language, setLanguage] = useAtom(languageAtom);
  const [info, setInfo] = useAtom(settingInfoAtom);
  const [saving, setSaving] = useState(false);

  const change = async (value: string) => {
    if (!isLanguageCode(value) || value === language) return;
    const previous = language;
    setLanguage(value);
    setSaving(true);
    try {
      const body = await updateLanguage(value);
      if (!isOk(body)) throw new Error(messageOf(body, t('common.tryAgainLater')));
      setInfo((i) => (i ? { ...i, language: value } : i));
      // The server's msg is English; the confirmation is shown in the language just chosen.
      toast(i18next.t('common.saved', { lng: value }));
    } catch (e) {
      setLanguage(previous);
      toast(e instanceof Error ? e.message : t('common.tryAgainLater'), { error: true });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Select
      label={t('common.language')}
      labelHidden={labelHidden}
      // Until settingInfo arrives the shop's saved language is unknown and would overwrite a choice.
      disabled={saving || !info}
      options={LANGUAGES.map((l) => ({ label: l.name, value: l.code }))}
      value={language}
      onChange={(v) => void change(v)}
    />
  );
}
