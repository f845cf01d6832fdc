import { atom, useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { contactFormAtom } from '../support/contact-form-state';
import { isOk, type AckEnvelope, type V1Envelope } from '../../../shared/api/envelope';
import { PLAN_LIMIT_KEY } from '../../../shared/message-keys';

// 'Plan Limit Reached': what screens need to open it and to answer its two support requests. The dialog
// itself (plan-limit-dialog.tsx) is loaded by the shell when it opens (issue 26).

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

// A job refused at planning (HTTP 402, key server.optimise.planLimit with its count) opens the same
// dialog as a job that stops at the limit, from whichever screen started it. getOptSchedule reports the
// stop as the documented text alone (plan_limit_message, no key): that text is read by its pattern.
const PLAN_LIMIT = /^There are (\d+) images that can be optimized\.$/;

/** N when the answer is the plan-limit refusal, else null. */
export function planLimitOf(body: Partial<AckEnvelope & V1Envelope> | null | undefined): number | null {
  if (!body || typeof body !== 'object' || isOk(body)) return null;
  if (body.message_key === PLAN_LIMIT_KEY) return Number(body.params?.count) || 0;
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
