// Replacing an image's bytes in place: stagedUploadsCreate -> multipart POST of the bytes to the
// staged target -> fileUpdate(originalSource: resourceUrl) -> poll the file until READY or FAILED.
// fileUpdate keeps the MediaImage id, its URL and its product associations.
import { ShopifyUserError, throwOnUserErrors, type UserError } from '../errors';
import type { AdminClient } from '../graphql-client';
import { realClock, type Clock } from '../throttle';

export type StagedTarget = { url: string; resourceUrl: string; parameters: { name: string; value: string }[] };

export const STAGED_UPLOADS_CREATE = /* GraphQL */ `
  mutation StagedUploadsCreate($input: [StagedUploadInput!]!) {
    stagedUploadsCreate(input: $input) {
      stagedTargets { url resourceUrl parameters { name value } }
      userErrors { field message }
    }
  }
`;

/** Asks Shopify for an upload target for one image file (resource IMAGE, HTTP POST). */
export async function createStagedUpload(
  client: AdminClient,
  file: { filename: string; mimeType: string; fileSize: number; resource?: 'IMAGE' | 'FILE' | 'COLLECTION_IMAGE' },
): Promise<StagedTarget> {
  const d = await client.request<{ stagedUploadsCreate: { stagedTargets: StagedTarget[]; userErrors: UserError[] } }>(
    STAGED_UPLOADS_CREATE,
    {
      input: [
        {
          resource: file.resource ?? 'IMAGE',
          filename: file.filename,
          mimeType: file.mimeType,
          fileSize: String(file.fileSize),
          httpMethod: 'POST',
        },
      ],
    },
  );
  throwOnUserErrors('stagedUploadsCreate', d.stagedUploadsCreate);
  const target = d.stagedUploadsCreate.stagedTargets[0];
  if (!target) throw new Error('stagedUploadsCreate returned no target');
  return target;
}

/**
 * POSTs the bytes to the staged target as multipart/form-data: every parameter Shopify gave, in order,
 * then the file last (the storage backends reject a file before the policy fields).
 */
export async function uploadToStagedTarget(
  target: StagedTarget,
  bytes: Uint8Array | ArrayBuffer,
  filename: string,
  mimeType: string,
  attempts = 3,
): Promise<string> {
  let last = '';
  for (let i = 0; i < attempts; i++) {
    const form = new FormData();
    for (const p of target.parameters) form.append(p.name, p.value);
    form.append('file', new File([bytes], filename, { type: mimeType }));
    const res = await fetch(target.url, { method: 'POST', body: form });
    if (res.ok) {
      await res.body?.cancel();
      return target.resourceUrl;
    }
    last = `${res.status} ${(await res.text()).slice(0, 200)}`;
    if (res.status < 500 && res.status !== 429) break;
    await realClock.sleep(500 * 2 ** i);
  }
  throw new Error(`staged upload failed: ${last}`);
}

/** Creates a staged target and uploads the bytes; returns the resourceUrl for fileUpdate / image inputs. */
export async function stageImage(client: AdminClient, bytes: Uint8Array, filename: string, mimeType: string): Promise<string> {
  const target = await createStagedUpload(client, { filename, mimeType, fileSize: bytes.byteLength });
  return uploadToStagedTarget(target, bytes, filename, mimeType);
}

/** `fileStatus`: UPLOADED, PROCESSING, READY, FAILED; a string, as Shopify may add values. */
export type FileState = { id: string; fileStatus: string; alt: string | null; url: string | null; errors: string[] };

const FILE_FIELDS = /* GraphQL */ `
  id
  alt
  fileStatus
  fileErrors { code details message }
  ... on MediaImage { image { url width height } originalSource { fileSize } }
`;

export const FILE_UPDATE = /* GraphQL */ `
  mutation FileUpdate($files: [FileUpdateInput!]!) {
    fileUpdate(files: $files) {
      files { ${FILE_FIELDS} }
      userErrors { field message code }
    }
  }
`;

export const FILE_STATUS = /* GraphQL */ `
  query FileStatus($id: ID!) { node(id: $id) { ... on File { ${FILE_FIELDS} } } }
`;

type RawFile = {
  id: string;
  alt: string | null;
  fileStatus: string;
  fileErrors?: { message: string }[];
  image?: { url: string } | null;
};

const toFileState = (f: RawFile): FileState => ({
  id: f.id,
  fileStatus: f.fileStatus,
  alt: f.alt,
  url: f.image?.url ?? null,
  errors: (f.fileErrors ?? []).map((e) => e.message),
});

/**
 * Replaces a MediaImage's file in place. `originalSource` is a staged resourceUrl; `filename` must keep
 * the original extension (Shopify's rule), `alt` sets the alt text in the same call.
 */
export async function updateFile(
  client: AdminClient,
  args: { id: string; originalSource?: string; alt?: string; filename?: string },
): Promise<FileState> {
  const input: Record<string, string> = { id: args.id };
  if (args.originalSource !== undefined) input.originalSource = args.originalSource;
  if (args.alt !== undefined) input.alt = args.alt;
  if (args.filename !== undefined) input.filename = args.filename;
  const send = () =>
    client.request<{ fileUpdate: { files: RawFile[] | null; userErrors: UserError[] } }>(FILE_UPDATE, { files: [input] });
  let d = await send();
  if (d.fileUpdate.userErrors?.some((e) => e.code === 'INVALID_FAILED_MEDIA_STATE')) {
    // A FAILED file nobody acknowledged (an earlier attempt died before it could): acknowledge, resend once.
    await acknowledgeFailedFiles(client, [args.id]);
    d = await send();
  }
  throwOnUserErrors('fileUpdate', d.fileUpdate);
  const f = d.fileUpdate.files?.[0];
  if (!f) throw new Error('fileUpdate returned no file');
  return toFileState(f);
}

export async function getFileState(client: AdminClient, id: string): Promise<FileState | null> {
  const d = await client.request<{ node: RawFile | null }>(FILE_STATUS, { id });
  return d.node && d.node.fileStatus ? toFileState(d.node) : null;
}

export const FILE_ACKNOWLEDGE_UPDATE_FAILED = /* GraphQL */ `
  mutation FileAcknowledgeUpdateFailed($fileIds: [ID!]!) {
    fileAcknowledgeUpdateFailed(fileIds: $fileIds) {
      files { id fileStatus }
      userErrors { field message code }
    }
  }
`;

/**
 * Resets FAILED files to READY (their last good bytes stay). Since 2026-10 Shopify refuses fileUpdate on
 * a FAILED file (INVALID_FAILED_MEDIA_STATE) until the failure is acknowledged this way.
 */
export async function acknowledgeFailedFiles(client: AdminClient, fileIds: string[]): Promise<void> {
  const d = await client.request<{
    fileAcknowledgeUpdateFailed: { files: { id: string; fileStatus: string }[] | null; userErrors: UserError[] };
  }>(FILE_ACKNOWLEDGE_UPDATE_FAILED, { fileIds });
  throwOnUserErrors('fileAcknowledgeUpdateFailed', d.fileAcknowledgeUpdateFailed);
}

/** The typed error of a file whose processing ended FAILED (code FILE_FAILED, Shopify's fileErrors). */
function fileFailedError(state: FileState): ShopifyUserError {
  return new ShopifyUserError(
    'fileStatus',
    state.errors.length
      ? state.errors.map((message) => ({ message, code: 'FILE_FAILED' }))
      : [{ message: 'File processing failed', code: 'FILE_FAILED' }],
  );
}

/**
 * Polls until READY (returned) or FAILED (thrown as a ShopifyUserError with Shopify's fileErrors). A
 * FAILED file is acknowledged first, so a caller's retry (another fileUpdate) is accepted.
 */
export async function waitForFileReady(
  client: AdminClient,
  id: string,
  opts: { timeoutMs?: number; intervalMs?: number; clock?: Clock } = {},
): Promise<FileState> {
  const clock = opts.clock ?? realClock;
  const deadline = clock.now() + (opts.timeoutMs ?? 60_000);
  let interval = opts.intervalMs ?? 500;
  for (;;) {
    const state = await getFileState(client, id);
    if (!state) throw new ShopifyUserError('fileStatus', [{ message: `file ${id} not found` }]);
    if (state.fileStatus === 'READY') return state;
    if (state.fileStatus === 'FAILED') {
      // The failure is the news; an acknowledgement that did not go through is healed by updateFile.
      await acknowledgeFailedFiles(client, [id]).catch(() => undefined);
      throw fileFailedError(state);
    }
    if (clock.now() + interval > deadline)
      throw new Error(`file ${id} still ${state.fileStatus} after ${opts.timeoutMs ?? 60_000} ms`);
    await clock.sleep(interval);
    interval = Math.min(interval * 1.5, 3_000);
  }
}
