import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { warmIntl } from '../lib/intl';

/**
 * Builds the interface language's Intl formatters ahead, in small tasks, when a screen mounts (while it
 * waits for its data): the render that shows the data then formats with them at no cost (lib/intl.ts).
 */
export function useWarmIntl(): void {
  const { i18n } = useTranslation();
  const language = i18n.language;
  useEffect(() => warmIntl(language), [language]);
}
