import { useAtom } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { insertContactLog } from '../api/calls';
import { useAppConfig } from '../hooks/use-app-config';
import { useSettingInfo } from '../hooks/use-settings-info';
import { supportChatUrl } from './support-chat';
import { contactFormAtom, type ContactRequest } from './contact-form-state';

// The contact / feedback form. Any screen opens it through
// contactFormAtom, optionally prefilled (quota-increase requests, low ratings); `path` records where
// the request came from (without a chat widget this form is the channel).
// With a configured support chat (SUPPORT_CHAT_URL), "contact support" and quota-increase requests open
// the chat instead, and a quota request is logged (insertContactLog); feedback after a low rating stays
// on this form ("a score under 4 also offers the feedback form", decisions.md "Reviews").
// The form itself (Modal, text fields) is loaded when it first opens, not with the first screen (issue 26);
// the chat decision stays here, so the chat still opens within the merchant's click.
export { contactFormAtom, type ContactRequest };

const ContactForm = lazy(async () => ({ default: (await import('./contact-form-dialog')).ContactForm }));

export function ContactFormHost() {
  const [request, setRequest] = useAtom(contactFormAtom);
  const chat = useAppConfig().support_chat_url;
  const info = useSettingInfo();
  const { i18n } = useTranslation();
  const toChat = !!request && !!chat && !request.feedback;
  useEffect(() => {
    if (!toChat || !request || !chat) return;
    const message = [request.title, request.description].filter(Boolean).join('\n');
    const user = {
      name: info?.name ?? '',
      email: info?.email ?? '',
      shop: info?.shop_owner ?? '',
      level: info?.shop_level ?? 0,
      language: i18n.language,
    };
    window.open(supportChatUrl(chat, user, message), '_blank', 'noopener');
    if (request.description) void insertContactLog(request.path ?? '', request.description).catch(() => undefined);
    setRequest(null);
  }, [toChat, request, chat, info, i18n.language, setRequest]);
  return request && !toChat ? (
    <Suspense fallback={null}>
      <ContactForm request={request} onClose={() => setRequest(null)} />
    </Suspense>
  ) : null;
}
