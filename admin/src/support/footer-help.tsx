import { FooterHelp, Link } from '@shopify/polaris';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { contactFormAtom } from './contact-form-state';
import './strings';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/** Footer help of the dashboard and image screens: contact support, privacy policy. */
export function AppFooterHelp() {
  const { t } = useTranslation();
  const openContact = useSetAtom(contactFormAtom);
  return (
    <FooterHelp>
      {/* Each link wraps as a whole at 390 px ("プライバシーポリシー" was cut before its last character). */}
      {t('common.footerHelp')}{' '}
      <span style={NO_WRAP}>
        <Link onClick={() => openContact({ path: 'footer' })}>{t('common.contactSupport')}</Link>
      </span>
      {' · '}
      <span style={NO_WRAP}>
        <Link url="/privacy-policy" target="_blank">
          {t('privacy.title')}
        </Link>
      </span>
    </FooterHelp>
  );
}
