import { BlockStack, Button, InlineStack, Link, Text } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { saveAppSwitch } from '../api/calls';
import { useQuotaRequest } from '../pricing/plan-limit';
import { useSettingInfo } from '../hooks/use-settings-info';
import { useSessionClosable } from '../hooks/use-session-closable';
import { formatNumber } from '../lib/intl';
import './page-strings';

/**
 * 'Plan Limit Reached' with 'There are N images that can be optimized.' and the ways to more quota:
 * the upgrade, and the two support requests (prefilled contact form) of the plan-limit dialog.
 */
export function PlanLimitBanner({ show, remaining }: { show: boolean; remaining: number }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const request = useQuotaRequest();
  const [closed, close] = useSessionClosable('image-plan-limit');
  if (!show || closed) return null;
  return (
    <Banner
      tone="warning"
      title={t('planLimit.title')}
      onDismiss={close}
      action={{ content: t('planLimit.upgrade'), onAction: () => void navigate({ to: '/pricing' }) }}
    >
      <BlockStack gap="200">
        <p>{t('planLimit.remaining', { count: formatNumber(remaining, i18n.language) })}</p>
        <InlineStack gap="200">
          <Button size="slim" onClick={() => request('permission', 'plan-limit-banner')}>
            {t('planLimit.applyPermission')}
          </Button>
          <Button size="slim" onClick={() => request('credits', 'plan-limit-banner')}>
            {t('planLimit.requestCredits')}
          </Button>
        </InlineStack>
      </BlockStack>
    </Banner>
  );
}

/** 'Remind: The quota limit has been reached', pointing at the overage switch of /setting. */
export function OverageReminder({ show }: { show: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [closed, close] = useSessionClosable('image-overage-remind');
  if (!show || closed) return null;
  return (
    <Banner tone="info" onDismiss={close}>
      <Text as="p">
        {t('imageOpt.banner.remind')}{' '}
        <Link onClick={() => void navigate({ to: '/setting' })}>{t('imageOpt.banner.remindLink')}</Link>
      </Text>
    </Banner>
  );
}

/** The partner review-app ad; closing it is remembered for the session and on the shop (extra_adver). */
export function PartnerAdBanner({ when = true }: { when?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useSettingInfo();
  const [closed, close] = useSessionClosable('image-partner-ad');
  const off = info?.app_switch.some((s) => s.name === 'extra_adver' && s.st === 1);
  if (!when || closed || off) return null;
  return (
    <Banner
      tone="info"
      title={t('imageOpt.banner.partnerTitle')}
      onDismiss={() => {
        close();
        void saveAppSwitch('extra_adver', 1, 0).catch(() => undefined);
      }}
      action={{ content: t('imageOpt.banner.partnerAction'), onAction: () => void navigate({ to: '/recommended-apps' }) }}
    >
      <BlockStack gap="100">
        <p>{t('imageOpt.banner.partnerBody')}</p>
      </BlockStack>
    </Banner>
  );
}
