import { BlockStack, DropZone, List, Modal, Text } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadImagesOpt } from '../api/calls';
import { useApiAction } from '../api/query';
import { errorText } from '../api/error-text';
import { usePlanLimitRefusal } from '../pricing/plan-limit';
import { useToast } from '../hooks/use-toast';
import './strings';
import './upload-strings';

/** Only .jpg, .jpeg and .png are uploaded. */
export const isUploadable = (file: { name: string }) => /\.(jpe?g|png)$/i.test(file.name);
/** The Worker's per-file limit (worker/optimise/errors.ts UPLOAD_MAX_FILE_BYTES). */
export const UPLOAD_MAX_FILE_BYTES = 5 * 1024 * 1024;

/** A refused file and its own reason, already in the merchant's language. */
export type Refused = { name: string; reason: string };

type T = (key: string, options?: Record<string, unknown>) => string;
const reasonLine = (t: T, key: string, name: string) => t(key, { name, interpolation: { escapeValue: false } });

/** What the dialog can tell before sending: the type by name, and the 5 MB limit. */
export function refusalBeforeSending(file: { name: string; size: number }, t: T): Refused | null {
  if (!isUploadable(file)) return { name: file.name, reason: reasonLine(t, 'server.upload.notSupported', file.name) };
  if (file.size > UPLOAD_MAX_FILE_BYTES) return { name: file.name, reason: reasonLine(t, 'server.upload.tooLarge', file.name) };
  return null;
}

type KeyedRefusal = { message_key?: string; params?: { name?: string | number } };

/**
 * The Worker refused every file at once (server.upload.rejected): its params list each file's reason as a
 * keyed message naming the file (worker/optimise/upload.ts), so each file gets its own reason back.
 */
export function refusalsFromError(body: unknown): Refused[] {
  const b = body as { message_key?: unknown; params?: { list?: unknown } } | null;
  if (b?.message_key !== 'server.upload.rejected' || !Array.isArray(b.params?.list)) return [];
  return (b.params.list as KeyedRefusal[]).map((item) => ({
    name: String(item.params?.name ?? ''),
    reason: errorText(item, ''),
  }));
}

const readBase64 = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve((reader.result as string).replace(/^data:[^,]*,/, '')); // readAsDataURL gives a string
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });

type Props = { open: boolean; onClose: () => void; options: { pngtojpg: number; is_watermark: number }; onStarted: () => void };

/** 'Upload images to optimize': pick or drop files; refused ones are listed, the rest optimised on the Other tab. */
export function UploadModal({ open, onClose, options, onStarted }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const [files, setFiles] = useState<File[]>([]);
  const [rejected, setRejected] = useState<Refused[]>([]);
  const planLimit = usePlanLimitRefusal();
  const send = useApiAction(
    async (good: File[], _refused: Refused[]) => {
      const file_list = await Promise.all(good.map(async (f) => ({ name: f.name, data: await readBase64(f), type: f.type })));
      return uploadImagesOpt({ file_list, opt_cfg: options });
    },
    {
      onSuccess: (body, _good, refused) => {
        const server = (body.data?.rejected ?? []).map((r) => ({ name: r.name, reason: errorText(r, r.message) }));
        const allRefused = [...refused, ...server];
        setFiles([]);
        setRejected(allRefused);
        onStarted();
        if (allRefused.length === 0) close();
      },
      // Refused at planning: the plan-limit dialog takes over; every file refused: each with its reason.
      onRefused: (body, _good, refused) => {
        if (planLimit(body)) {
          close();
          return true;
        }
        const perFile = refusalsFromError(body);
        if (perFile.length === 0) return false;
        setFiles([]);
        setRejected([...refused, ...perFile]);
        return true;
      },
    },
  );
  const sending = send.pending;

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
    const refused = files.flatMap((f) => refusalBeforeSending(f, t) ?? []);
    const good = files.filter((f) => refusalBeforeSending(f, t) === null);
    setRejected(refused);
    // A file listed under "couldn't be uploaded" is no longer among the files to upload.
    setFiles(good);
    if (good.length === 0) {
      if (files.length === 0) toast(t('imageOpt.upload.none'), { error: true });
      return;
    }
    await send.run(good, refused);
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
                {rejected.map((r, i) => (
                  <List.Item key={`${r.name}-${i}`}>{r.reason}</List.Item>
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
