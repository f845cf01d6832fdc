import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp } from '../helpers/render-app';
import { historyRow, idleSchedule, page, totals } from './fixtures';

// The whole admin renders per test on a shared 2-core machine: give each test room.
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  sessionStorage.clear();
  Object.defineProperty(window, 'innerWidth', { value: 1280, configurable: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const file = (name: string, type: string, bytes: number[]) => new File([new Uint8Array(bytes)], name, { type });
const JPEG = [0xff, 0xd8, 0xff, 0xe0, 1, 2, 3];

async function openUpload(over: Record<string, unknown> = {}) {
  const api = mockApi({
    '/api/v2/image-opt/getImgOptTotal': totals(),
    '/api/v2/image-opt/getOptSchedule': idleSchedule(),
    '/api/v2/image-opt/getImageOptDataPage': page([historyRow(1)]),
    ...over,
  });
  renderApp('/image_optimisation');
  // Polaris renders a CSS-hidden measuring copy of the header's actions, visible to happy-dom (no CSS).
  fireEvent.click((await screen.findAllByRole('button', { name: 'Upload images to optimize' }))[0]!);
  const modal = await screen.findByRole('dialog', { name: 'Upload images to optimize' });
  const drop = (files: File[]) =>
    fireEvent.change(modal.querySelector('input[type=file]') as HTMLInputElement, { target: { files } });
  return { api, modal, drop };
}

describe('upload images to optimize', () => {
  it('sends only .jpg/.jpeg/.png and lists the refused files under the documented heading', async () => {
    const { api, modal, drop } = await openUpload({
      '/api/v2/image-opt/uploadImagesOpt': { ack: 1, data: { job_id: 1, accepted: 1, rejected: [] } },
    });
    drop([file('hat.jpg', 'image/jpeg', JPEG), file('anim.gif', 'image/gif', [0x47, 0x49, 0x46])]);
    await within(modal).findByText('anim.gif');
    fireEvent.click(within(modal).getByRole('button', { name: 'Upload and optimize' }));
    expect(await within(modal).findByText("The following images couldn't be uploaded:")).toBeTruthy();
    expect(within(modal).getByText('anim.gif is not supported. File type must be .jpg, .png.')).toBeTruthy();
    await waitFor(() => expect(api.callsTo('/api/v2/image-opt/uploadImagesOpt')).toHaveLength(1));
    const body = api.callsTo('/api/v2/image-opt/uploadImagesOpt')[0]?.body as {
      file_list: { name: string; data: string }[];
      opt_cfg: unknown;
    };
    expect(body.file_list.map((f) => f.name)).toEqual(['hat.jpg']);
    expect(body.file_list[0]?.data).toBe(btoa(String.fromCharCode(...JPEG)));
    expect(body.opt_cfg).toEqual({ pngtojpg: 0, is_watermark: 0 });
  }, 15_000);

  it("with no acceptable file: toast 'haven't uploaded any image' and no call", async () => {
    const { api, modal, drop } = await openUpload();
    fireEvent.click(within(modal).getByRole('button', { name: 'Upload and optimize' }));
    expect((await screen.findAllByText("haven't uploaded any image")).length).toBeGreaterThan(0);
    drop([file('notes.txt', 'text/plain', [1])]);
    await within(modal).findByText('notes.txt');
    fireEvent.click(within(modal).getByRole('button', { name: 'Upload and optimize' }));
    expect(await within(modal).findByText('notes.txt is not supported. File type must be .jpg, .png.')).toBeTruthy();
    // A file that couldn't be uploaded leaves the list of files to upload: nothing is left to send.
    expect(within(modal).queryByText('notes.txt')).toBeNull();
    expect(api.callsTo('/api/v2/image-opt/uploadImagesOpt')).toHaveLength(0);
  }, 15_000);

  it('after the upload job ends, the history reloads the Other tab (the list on screen), not the one of an older render', async () => {
    const { api, modal, drop } = await openUpload({
      '/api/v2/image-opt/uploadImagesOpt': { ack: 1, data: { job_id: 1, accepted: 1, rejected: [] } },
      // The one image is done by the time of the first read.
      '/api/v2/image-opt/getOptSchedule': {
        ack: 1,
        data: {
          ...idleSchedule().data,
          other: {
            data_type: 4,
            process_type: 'upload',
            page_type: 0,
            process_result: 1,
            opt_in: 0,
            opt_total: 1,
            status: 'done',
            plan_limit_message: null,
            list: [],
          },
        },
      },
    });
    drop([file('hat.jpg', 'image/jpeg', JPEG)]);
    await within(modal).findByText('hat.jpg');
    fireEvent.click(within(modal).getByRole('button', { name: 'Upload and optimize' }));
    expect((await screen.findAllByText('1 images optimized', undefined, { timeout: 5000 })).length).toBeGreaterThan(0);
    const history = () => api.callsTo('/api/v2/image-opt/getImageOptDataPage').filter((c) => c.query.get('page_type') === '0');
    const before = history().length;
    await waitFor(() => expect(history().length).toBe(before + 1), { timeout: 6000 });
    expect(history().at(-1)?.query.get('data_type')).toBe('4');
  }, 20_000);
});
