import { Select } from '../widgets/select';
import { useAtom } from 'jotai';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { updateLanguage } from '../api/calls';
import { useApiAction } from '../api/query';
import { useToast } from '../hooks/use-toast';
import { catalogueReady, i18next } from '../i18n';
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

  const previous = useRef(language);
  const save = useApiAction(updateLanguage, {
    onSuccess: (body, value) => {
      setInfo((i) => (i ? { ...i, language: value } : i));
      // "language save shows the server msg on code 200" (page-speed-and-app.md section 8): the server's
      // message, in the language just chosen through its catalogue key (that catalogue is fetched on first
      // use: wait for it); a msg without a key is shown as sent.
      void catalogueReady(value).then(() =>
        toast(
          body.message_key
            ? i18next.t(body.message_key, { ...body.params, lng: value })
            : body.msg || i18next.t('common.saved', { lng: value }),
        ),
      );
    },
    onError: () => setLanguage(previous.current),
  });

  const change = async (value: string) => {
    if (!isLanguageCode(value) || value === language) return;
    previous.current = language;
    setLanguage(value);
    await save.run(value);
  };

  return (
    <Select
      label={t('common.language')}
      labelHidden={labelHidden}
      // Until settingInfo arrives the shop's saved language is unknown and would overwrite a choice.
      disabled={save.pending || !info}
      options={LANGUAGES.map((l) => ({ label: l.name, value: l.code }))}
      value={language}
      onChange={(v) => void change(v)}
    />
  );
}
