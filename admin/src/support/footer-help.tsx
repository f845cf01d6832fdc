import { FooterHelp, Link } from '@shopify/polaris';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { contactFormAtom } from './contact-form-state';

/** Footer help of the dashboard and image screens: contact support, privacy policy. */
export function AppFooterHelp() {
  const { t } = useTranslation();
  const openContact = useSetAtom(contactFormAtom);
  return (
    <FooterHelp>
      {t('common.footerHelp')} <Link onClick={() => openContact({ path: 'footer' })}>{t('common.contactSupport')}</Link>
      {' · '}
      <Link url="/privacy-policy" target="_blank">
        {t('privacy.title')}
      </Link>
    </FooterHelp>
  );
}
