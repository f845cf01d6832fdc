import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderApp } from '../helpers/render-app';
import { setUpImagePageEnvironment } from './page-environment';
import { historyRow, idleSchedule, page, totals } from './fixtures';

// Issue 15: the image page as a merchant meets it (settings sheet, running out of quota, uploads,
// optimising a whole tab).
setUpImagePageEnvironment();
const H = '/api/v2/image-opt/getImageOptDataPage';
const PLAN_LIMIT_402 = { ack: 0, message: 'There are 12 images that can be optimized.' };

function api(over: Record<string, unknown> = {}) {
  return mockApi({
    '/api/v2/image-opt/getImgOptTotal': totals(),
    '/api/v2/image-opt/getOptSchedule': idleSchedule(),
    [H]: page([historyRow(1)]),
    '/api/v2/image-opt/getSettings': { ack: 1, data: totals().settings },
    '/api/v1/getThisUserEmail': { code: '200', data: { email: 'owner@example.com', name: 'Owner' } },
    ...over,
  });
}

describe('settings sheet', () => {
  it('closing with unsaved edits asks Leave / Stay; Stay keeps the edits, Leave closes', async () => {
    api();
    renderApp('/image_optimisation');
    // Polaris renders a CSS-hidden measuring copy of the header's actions, visible to happy-dom (no CSS).
    fireEvent.click((await screen.findAllByRole('button', { name: 'Settings' }))[0]!);
    const sheet = await screen.findByRole('dialog', { name: 'Settings' });
    fireEvent.click(await within(sheet).findByLabelText('Automatic'));
    fireEvent.click(within(sheet).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('Your changes have not been saved. Are you sure you want to leave?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() =>
      expect(screen.queryByText('Your changes have not been saved. Are you sure you want to leave?')).toBeNull(),
    );
    expect(within(sheet).getByLabelText<HTMLInputElement>('Automatic').checked).toBe(true);
    fireEvent.click(within(sheet).getByRole('button', { name: 'Close' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull());
  });

  it('closing without edits closes at once; Save is disabled while the one-item warning shows', async () => {
    api();
    renderApp('/image_optimisation');
    // Polaris renders a CSS-hidden measuring copy of the header's actions, visible to happy-dom (no CSS).
    fireEvent.click((await screen.findAllByRole('button', { name: 'Settings' }))[0]!);
    const sheet = await screen.findByRole('dialog', { name: 'Settings' });
    await within(sheet).findByLabelText('Collection images');
    fireEvent.click(within(sheet).getAllByLabelText('None')[0]!);
    fireEvent.click(within(sheet).getByLabelText('Collection images'));
    fireEvent.click(within(sheet).getByLabelText('Blog post images'));
    expect(within(sheet).getByText('Optimization cannot occur until you have set up at least one item.')).toBeTruthy();
    expect(within(sheet).getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Discard' }));
    fireEvent.click(within(sheet).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull());
  });

  it('first set-up: the sheet saves the defaults as they are', async () => {
    const calls = api({
      '/api/v2/image-opt/getImgOptTotal': totals({ isDefault: 1 }),
      '/api/v2/image-opt/getSettings': { ack: 1, data: totals({ isDefault: 1 }).settings },
      '/api/v2/image-opt/saveSettings': { ack: 1, data: totals().settings },
    });
    renderApp('/image_optimisation');
    // Polaris renders a CSS-hidden measuring copy of the header's actions, visible to happy-dom (no CSS).
    fireEvent.click((await screen.findAllByRole('button', { name: 'Settings' }))[0]!);
    const sheet = await screen.findByRole('dialog', { name: 'First set up requirement' });
    await within(sheet).findByLabelText('Collection images');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.callsTo('/api/v2/image-opt/saveSettings')).toHaveLength(1));
  });
});

describe('out of quota', () => {
  it('the used-up banner offers Apply for permission and Request more trial credits (prefilled contact form)', async () => {
    api({ '/api/v2/image-opt/getImgOptTotal': totals({ used: 150, all: 150, unOpt: 9 }) });
    renderApp('/image_optimisation');
    expect(await screen.findByText('There are 9 images that can be optimized.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Request more trial credits' }));
    const form = await screen.findByRole('dialog', { name: /contact/i });
    expect(within(form).getByLabelText<HTMLInputElement>('Subject').value).toBe('Request more trial credits');
    expect(within(form).getByLabelText<HTMLTextAreaElement>('Description').value).toMatch(/trial credits/);
  });

  it('a manual job refused at planning (402) opens the plan-limit dialog with both requests', async () => {
    const calls = api({
      [H]: (c: { query: URLSearchParams }) =>
        c.query.get('page_type') === '1' ? page([historyRow(5, { title: 'Wool Hat' })]) : page([historyRow(1)]),
      '/api/v2/image-opt/reOptimize': PLAN_LIMIT_402,
    });
    renderApp('/image_optimisation');
    fireEvent.click(await screen.findByRole('button', { name: 'Manually optimize' }));
    const modal = await screen.findByRole('dialog', { name: 'Manually optimize' });
    const row = (await within(modal).findAllByText('Wool Hat'))[0]?.closest('tr');
    fireEvent.click(within(row as HTMLElement).getByRole('checkbox'));
    fireEvent.click(within(modal).getByRole('button', { name: 'Optimize now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Plan Limit Reached' });
    expect(within(dialog).getByText('There are 12 images that can be optimized.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Apply for permission' })).toBeTruthy();
    expect(calls.callsTo('/api/v2/image-opt/reOptimize')).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply for permission' }));
    const form = await screen.findByRole('dialog', { name: /contact/i });
    expect(within(form).getByLabelText<HTMLInputElement>('Subject').value).toBe('Apply for permission');
  });

  it('an upload refused at planning (402) opens the same dialog', async () => {
    api({ '/api/v2/image-opt/uploadImagesOpt': PLAN_LIMIT_402 });
    renderApp('/image_optimisation');
    // Polaris renders a CSS-hidden measuring copy of the header's actions, visible to happy-dom (no CSS).
    fireEvent.click((await screen.findAllByRole('button', { name: 'Upload images to optimize' }))[0]!);
    const modal = await screen.findByRole('dialog', { name: 'Upload images to optimize' });
    fireEvent.change(modal.querySelector('input[type=file]') as HTMLInputElement, {
      target: { files: [new File([new Uint8Array([0xff, 0xd8, 0xff, 1])], 'a.jpg', { type: 'image/jpeg' })] },
    });
    await within(modal).findByText('a.jpg');
    fireEvent.click(within(modal).getByRole('button', { name: 'Upload and optimize' }));
    expect(await screen.findByRole('dialog', { name: 'Plan Limit Reached' })).toBeTruthy();
  });
});

describe('upload: each refused file with its own reason', () => {
  it('type and size are told before sending; the Worker’s 25 MP refusal per file', async () => {
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.jpg', { type: 'image/jpeg' });
    const calls = api({
      '/api/v2/image-opt/uploadImagesOpt': {
        ack: 0,
        message: "The following images couldn't be uploaded: giant photo.jpg is too large. Images can be at most 25 megapixels.",
        message_key: 'server.upload.rejected',
        params: { list: [{ message_key: 'server.upload.tooManyPixels', params: { name: 'giant photo.jpg' } }] },
      },
    });
    renderApp('/image_optimisation');
    // Polaris renders a CSS-hidden measuring copy of the header's actions, visible to happy-dom (no CSS).
    fireEvent.click((await screen.findAllByRole('button', { name: 'Upload images to optimize' }))[0]!);
    const modal = await screen.findByRole('dialog', { name: 'Upload images to optimize' });
    const giant = new File([new Uint8Array([0xff, 0xd8, 0xff, 1])], 'giant photo.jpg', { type: 'image/jpeg' });
    fireEvent.change(modal.querySelector('input[type=file]') as HTMLInputElement, {
      target: { files: [big, giant, new File([new Uint8Array([1])], 'doc.pdf')] },
    });
    await within(modal).findByText('doc.pdf');
    fireEvent.click(within(modal).getByRole('button', { name: 'Upload and optimize' }));
    expect(await within(modal).findByText('giant photo.jpg is too large. Images can be at most 25 megapixels.')).toBeTruthy();
    expect(within(modal).getByText('huge.jpg is too large. Each image must be 5 MB or smaller.')).toBeTruthy();
    expect(within(modal).getByText('doc.pdf is not supported. File type must be .jpg, .png.')).toBeTruthy();
    const sent = calls.callsTo('/api/v2/image-opt/uploadImagesOpt')[0]?.body as { file_list: { name: string }[] };
    expect(sent.file_list.map((f) => f.name)).toEqual(['giant photo.jpg']);
  });

  it('partial acceptance: the Worker’s reasons are listed per file', async () => {
    api({
      '/api/v2/image-opt/uploadImagesOpt': {
        ack: 1,
        data: {
          job_id: 'j',
          accepted: ['a.jpg'],
          rejected: [
            {
              name: 'b.png',
              message: 'b.png is not supported. File type must be .jpg, .png.',
              message_key: 'server.upload.notSupported',
              params: { name: 'b.png' },
            },
          ],
        },
      },
    });
    renderApp('/image_optimisation');
    // Polaris renders a CSS-hidden measuring copy of the header's actions, visible to happy-dom (no CSS).
    fireEvent.click((await screen.findAllByRole('button', { name: 'Upload images to optimize' }))[0]!);
    const modal = await screen.findByRole('dialog', { name: 'Upload images to optimize' });
    const jpg = [0xff, 0xd8, 0xff, 1];
    fireEvent.change(modal.querySelector('input[type=file]') as HTMLInputElement, {
      target: { files: [new File([new Uint8Array(jpg)], 'a.jpg'), new File([new Uint8Array(jpg)], 'b.png')] },
    });
    await within(modal).findByText('b.png');
    fireEvent.click(within(modal).getByRole('button', { name: 'Upload and optimize' }));
    expect(await within(modal).findByText('b.png is not supported. File type must be .jpg, .png.')).toBeTruthy();
  });
});

describe('manual modal: select all across pages', () => {
  it('offers "Select all N items" when the tab has more pages, and then sends one job for the whole tab', async () => {
    const manualPage = {
      ack: 1,
      data: {
        data: Array.from({ length: 10 }, (_, i) => historyRow(i + 1, { title: `Item ${i + 1}` })),
        current_page: 1,
        per_page: 10,
        total: 34,
      },
    };
    const calls = api({
      [H]: (c: { query: URLSearchParams }) => (c.query.get('page_type') === '1' ? manualPage : page([historyRow(1)])),
      '/api/v2/image-opt/reOptimize': { ack: 1, data: { job_id: 'j', total: 60 } },
    });
    renderApp('/image_optimisation');
    fireEvent.click(await screen.findByRole('button', { name: 'Manually optimize' }));
    const modal = await screen.findByRole('dialog', { name: 'Manually optimize' });
    await within(modal).findAllByText('Item 3');
    fireEvent.click(within(modal).getAllByRole('checkbox')[0]!); // the page
    fireEvent.click(await within(modal).findByRole('button', { name: 'Select all 34 items' }));
    expect(await within(modal).findByText('All 34 items on every page are selected')).toBeTruthy();
    fireEvent.click(within(modal).getByRole('button', { name: 'Optimize now' }));
    await waitFor(() =>
      expect(calls.callsTo('/api/v2/image-opt/reOptimize')[0]?.body).toEqual({
        data_type: 1,
        data_list: [],
        re_opt_type: 'all',
        page_type: 1,
      }),
    );
  });
});
