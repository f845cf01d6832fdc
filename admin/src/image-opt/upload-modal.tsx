import { BlockStack, Banner, DropZone, List, Modal, Text } from '@shopify/polaris';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadImagesOpt } from '../api/calls';
import { isOk, messageOf } from '../api/client';
import { useToast } from '../hooks/use-toast';

/** Section 5: only .jpg, .jpeg and .png are uploaded. */
export const isUploadable = (file: { name: string }) => /\.(jpe?g|png)$/i.test(file.name);

const readBase64 = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

type Props = { open: boolean; onClose: () => void; options: { pngtojpg: number; is_watermark: number }; onStarted: () => void };

/** 'Upload images to optimize': pick or drop files; refused ones are listed, the rest optimised on the Other tab. */
export function UploadModal({ open, onClose, options, onStarted }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const [files, setFiles] = useState<File[]>([]);
  const [rejected, setRejected] = useState<string[]>([]);
  const [sending, setSending] = useState(false);

  const close = () => {
    setFiles([]);
    setRejected([]);
    onClose();
  };

  const onDrop = (_all: File[], accepted: File[]) => {
    setFiles((prev) => [...prev, ...accepted]);
    setRejected([]);
  };

  const upload = async () => {
    const good = files.filter(isUploadable);
    const refused = files.filter((f) => !isUploadable(f)).map((f) => f.name);
    setRejected(refused);
    if (good.length === 0) {
      toast(t('imageOpt.upload.none'), { error: true });
      return;
    }
    setSending(true);
    try {
      const file_list = await Promise.all(good.map(async (f) => ({ name: f.name, data: await readBase64(f), type: f.type })));
      const body = await uploadImagesOpt({ file_list, opt_cfg: options });
      if (!isOk(body)) {
        toast(messageOf(body, t('common.tryAgainLater')), { error: true });
        return;
      }
      const server = ((body.data as { rejected?: { name: string }[] } | undefined)?.rejected ?? []).map((r) => r.name);
      const allRefused = [...refused, ...server];
      setFiles([]);
      setRejected(allRefused);
      onStarted();
      if (allRefused.length === 0) close();
    } catch (e) {
      toast(e instanceof Error ? e.message : t('common.tryAgainLater'), { error: true });
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open={open}
      onClose={close}
      title={t('imageOpt.upload.title')}
      primaryAction={{ content: t('imageOpt.upload.action'), onAction: () => void upload(), loading: sending }}
      secondaryActions={[{ content: t('common.cancel'), onAction: close }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          {rejected.length > 0 && (
            <Banner tone="critical" title={t('imageOpt.upload.rejectedHeading')}>
              <List>
                {rejected.map((name) => (
                  <List.Item key={name}>{t('imageOpt.upload.rejectedFile', { name })}</List.Item>
                ))}
              </List>
            </Banner>
          )}
          <DropZone allowMultiple onDrop={onDrop} label={t('imageOpt.upload.dropLabel')} labelHidden>
            <DropZone.FileUpload actionTitle={t('imageOpt.upload.addFiles')} actionHint={t('imageOpt.upload.hint')} />
          </DropZone>
          {files.length > 0 && (
            <List type="number">
              {files.map((f, i) => (
                <List.Item key={`${f.name}-${i}`}>{f.name}</List.Item>
              ))}
            </List>
          )}
          <Text as="p" variant="bodySm" tone="subdued">
            {t('imageOpt.upload.note')}
          </Text>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
