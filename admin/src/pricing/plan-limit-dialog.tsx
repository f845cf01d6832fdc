import { Modal, Text } from '@shopify/polaris';
import { atom, useAtom, useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { contactFormAtom } from '../support/contact-form';
import { isOk, type AckEnvelope, type V1Envelope } from '../../../shared/api/envelope';
import { formatNumber } from '../lib/intl';

// 'Plan Limit Reached' with the two support requests. Both open the contact
// form prefilled with the request, which records it for customer service.

/** The two requests: the contact form, prefilled, with where it came from. */
export function useQuotaRequest() {
  const { t } = useTranslation();
  const openContact = useSetAtom(contactFormAtom);
  return useCallback(
    (kind: 'permission' | 'credits', from: string) =>
      openContact({
        title: t(kind === 'permission' ? 'planLimit.applyPermission' : 'planLimit.requestCredits'),
        description: t(kind === 'permission' ? 'planLimit.permissionMessage' : 'planLimit.creditsMessage'),
        path: `${from}/${kind}`,
      }),
    [openContact, t],
  );
}

export function PlanLimitDialog({
  open,
  remaining,
  onClose,
  onUpgrade,
}: {
  open: boolean;
  remaining: number;
  onClose: () => void;
  onUpgrade?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const request = useQuotaRequest();
  const ask = (kind: 'permission' | 'credits') => {
    onClose();
    request(kind, 'plan-limit');
  };
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('planLimit.title')}
      primaryAction={onUpgrade ? { content: t('planLimit.upgrade'), onAction: onUpgrade } : undefined}
      secondaryActions={[
        { content: t('planLimit.applyPermission'), onAction: () => ask('permission') },
        { content: t('planLimit.requestCredits'), onAction: () => ask('credits') },
      ]}
    >
      <Modal.Section>
        <Text as="p">{t('planLimit.reached')}</Text>
        <Text as="p" tone="subdued">
          {t('planLimit.remaining', { count: formatNumber(remaining, i18n.language) })}
        </Text>
      </Modal.Section>
    </Modal>
  );
}

// A job refused at planning (HTTP 402, key server.optimise.planLimit with its count) opens the same
// dialog as a job that stops at the limit, from whichever screen started it. getOptSchedule reports the
// stop as the documented text alone (plan_limit_message, no key): that text is read by its pattern.
const PLAN_LIMIT = /^There are (\d+) images that can be optimized\.$/;

/** N when the answer is the plan-limit refusal, else null. */
export function planLimitOf(body: Partial<AckEnvelope & V1Envelope> | null | undefined): number | null {
  if (!body || typeof body !== 'object' || isOk(body)) return null;
  if (body.message_key === 'server.optimise.planLimit') return Number(body.params?.count) || 0;
  const m = PLAN_LIMIT.exec(String(body.message ?? body.msg ?? ''));
  return m ? Number(m[1]) : null;
}

export const planLimitAtom = atom<{ remaining: number } | null>(null);

/** Returns a check for answers: a plan-limit refusal opens the dialog (true), anything else is the caller's. */
export function usePlanLimitRefusal() {
  const show = useSetAtom(planLimitAtom);
  return useCallback(
    (body: Partial<AckEnvelope & V1Envelope>) => {
      const remaining = planLimitOf(body);
      if (remaining === null) return false;
      show({ remaining });
      return true;
    },
    [show],
  );
}

/** Hosted once by the app shell. */
export function PlanLimitHost({ onUpgrade }: { onUpgrade: () => void }) {
  const [state, setState] = useAtom(planLimitAtom);
  return (
    <PlanLimitDialog
      open={state !== null}
      remaining={state?.remaining ?? 0}
      onClose={() => setState(null)}
      onUpgrade={() => {
        setState(null);
        onUpgrade();
      }}
    />
  );
}
