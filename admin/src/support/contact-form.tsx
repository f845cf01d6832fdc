import { FormLayout, Modal, TextField } from '@shopify/polaris';
import { atom, useAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getThisUserEmail, insertContactLog, insertContactUs } from '../api/calls';
import { useAppConfig } from '../hooks/use-app-config';
import { useSettingInfo } from '../hooks/use-settings-info';
import { supportChatUrl } from './support-chat';
import { useApiAction, useApiQuery } from '../api/query';
import { useToast } from '../hooks/use-toast';

// The contact / feedback form. Any screen opens it through
// contactFormAtom, optionally prefilled (quota-increase requests, low ratings); `path` records where
// the request came from (without a chat widget this form is the channel).
// With a configured support chat (SUPPORT_CHAT_URL), "contact support" and quota-increase requests open
// the chat instead, and a quota request is logged (insertContactLog); feedback after a low rating stays
// on this form ("a score under 4 also offers the feedback form", decisions.md "Reviews").
export type ContactRequest = { title?: string; description?: string; path?: string; feedback?: boolean };
export const contactFormAtom = atom<ContactRequest | null>(null);

type Errors = Partial<Record<'name' | 'email' | 'description', string>>;

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
  return request && !toChat ? <ContactForm request={request} onClose={() => setRequest(null)} /> : null;
}

function ContactForm({ request, onClose }: { request: ContactRequest; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [title, setTitle] = useState(request.title ?? '');
  const [description, setDescription] = useState(request.description ?? '');
  const [errors, setErrors] = useState<Errors>({});

  // Prefill only: the merchant can type them (a failed read is silent).
  const owner = useApiQuery({
    key: ['thisUserEmail'],
    call: getThisUserEmail,
    select: (body) => body.data ?? null,
    errorToast: false,
  });
  useEffect(() => {
    if (!owner.data) return;
    const { name: ownerName, email: ownerEmail } = owner.data;
    setName((v) => v || ownerName || '');
    setEmail((v) => v || ownerEmail || '');
  }, [owner.data]);

  const send = useApiAction(insertContactUs, {
    onSuccess: () => {
      toast(t('contact.sent'));
      onClose();
    },
  });
  const sending = send.pending;

  const submit = async () => {
    const next: Errors = {};
    if (!name.trim()) next.name = t('contact.nameEmpty');
    if (!email.trim()) next.email = t('contact.emailEmpty');
    if (!description.trim()) next.description = t('contact.descriptionEmpty');
    setErrors(next);
    if (Object.keys(next).length) return;
    await send.run({
      name: name.trim(),
      email: email.trim(),
      title: title.trim(),
      description: description.trim(),
      path: request.path,
    });
  };

  return (
    <Modal
      open
      title={t('contact.title')}
      onClose={onClose}
      primaryAction={{ content: t('contact.send'), onAction: () => void submit(), loading: sending }}
      secondaryActions={[{ content: t('common.cancel'), onAction: onClose }]}
    >
      <Modal.Section>
        <FormLayout>
          <TextField label={t('contact.name')} value={name} onChange={setName} autoComplete="name" error={errors.name} />
          <TextField
            label={t('contact.email')}
            type="email"
            value={email}
            onChange={setEmail}
            autoComplete="email"
            error={errors.email}
          />
          <TextField label={t('contact.subject')} value={title} onChange={setTitle} autoComplete="off" />
          <TextField
            label={t('contact.description')}
            value={description}
            onChange={setDescription}
            autoComplete="off"
            multiline={4}
            error={errors.description}
          />
        </FormLayout>
      </Modal.Section>
    </Modal>
  );
}
