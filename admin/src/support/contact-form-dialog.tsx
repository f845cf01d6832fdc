import { FormLayout, Modal, TextField } from '@shopify/polaris';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getThisUserEmail, insertContactUs } from '../api/calls';
import { useApiAction, useApiQuery } from '../api/query';
import { useToast } from '../hooks/use-toast';
import type { ContactRequest } from './contact-form-state';

// The contact / feedback form (opened by ContactFormHost in contact-form.tsx, loaded on first use).

type Errors = Partial<Record<'name' | 'email' | 'description', string>>;

export function ContactForm({ request, onClose }: { request: ContactRequest; onClose: () => void }) {
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
