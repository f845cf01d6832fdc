import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetAppConfig } from '../../admin/src/hooks/use-app-config';
import { mockApi, renderApp } from './helpers/render-app';

/** Our App Store listing, as GET /app-config delivers it. */
const LISTING = 'https://apps.shopify.com/our-listing';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const next = () => fireEvent.click(screen.getByRole('button', { name: 'Next' }));

async function toStep(n: number) {
  fireEvent.click(await screen.findByRole('button', { name: "Let's start now" }));
  await screen.findByRole('button', { name: 'Next' }); // the steps' code arrives (screens/guidance-steps.tsx)
  for (let i = 2; i < n; i++) next();
}

describe('first-run wizard (/guidance)', () => {
  it('shows Step N of 4 and progress for the counted steps', async () => {
    mockApi({});
    renderApp('/guidance');
    await toStep(2);
    expect(screen.getByText('Step 1 of 4')).toBeTruthy();
    expect(document.querySelector('progress')?.getAttribute('value')).toBe('25');
    next();
    expect(screen.getByText('Step 2 of 4')).toBeTruthy();
    expect(document.querySelector('progress')?.getAttribute('value')).toBe('50');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByText('Step 1 of 4')).toBeTruthy();
    expect(screen.getByText("Don't worry. you can always change it later.")).toBeTruthy();
  });

  it('disables Next on the alt text step when the switch is on and no scope is chosen', async () => {
    mockApi({});
    renderApp('/guidance');
    await toStep(3);
    // Polaris marks disabled buttons with aria-disabled (and ignores their clicks).
    const nextDisabled = () => screen.getByRole('button', { name: 'Next' }).getAttribute('aria-disabled') === 'true';
    expect(nextDisabled()).toBe(false);
    fireEvent.click(screen.getByLabelText('None'));
    fireEvent.click(screen.getByLabelText('Collection image alt'));
    fireEvent.click(screen.getByLabelText('Blog post image alt'));
    expect(nextDisabled()).toBe(true);
    expect(screen.getByText('Optimization cannot occur until you have set up at least one item.')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Write alt text from templates'));
    expect(nextDisabled()).toBe(false);
  });

  it('blocks going to step 4 while an enabled alt template is empty and marks the editor', async () => {
    mockApi({});
    renderApp('/guidance');
    await toStep(3);
    const editor = screen.getByLabelText('Collection alt text template');
    fireEvent.change(editor, { target: { value: ' \u200B ' } });
    await act(() => new Promise((r) => setTimeout(r, 150))); // the 100 ms tag debounce
    next();
    expect(screen.getByText('Step 2 of 4')).toBeTruthy();
    expect(screen.getByText('The input cannot be empty!')).toBeTruthy();
    fireEvent.change(editor, { target: { value: 'Sale' } });
    await act(() => new Promise((r) => setTimeout(r, 150)));
    next();
    expect(screen.getByText('Step 3 of 4')).toBeTruthy();
  });

  it('inserts placeholders with single spaces', async () => {
    mockApi({});
    renderApp('/guidance');
    await toStep(3);
    const editor = screen.getByLabelText<HTMLInputElement>('Blog post alt text template');
    fireEvent.change(editor, { target: { value: 'News   from' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Shop name' }).at(-1)!);
    expect(editor.value).toBe('News from %shop_name%');
  });

  it('saves at step 6, toasts, and goes to /pricing 1 s after the review step', async () => {
    resetAppConfig();
    const api = mockApi({
      '/api/v1/saveNewGuideCfg': { ack: 1, code: '200' },
      '/api/v1/reviewTipsClick': { code: '200' },
      '/app-config': { app_store_url: LISTING },
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { router } = renderApp('/guidance');
    await toStep(5);
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish' }));
    expect(await screen.findByText('Success')).toBeTruthy();
    const [save] = api.callsTo('/api/v1/saveNewGuideCfg');
    expect(save?.body).toMatchObject({
      page5: { day_backup: 1 },
      settings: {
        image_opt: { switch: 1, product: 1, collection: 1, blogs: 1 },
        alt_text: { switch: 1, blank_replace: 1, product_rule: '%product_title%-%shop_name%' },
        file_name: { switch: 0 },
        auto_switch: 0,
        is_default: 0,
      },
    });
    fireEvent.click(screen.getByRole('button', { name: '5 stars' }));
    expect(await screen.findByText('Completed instruction!')).toBeTruthy();
    await waitFor(() => expect(open).toHaveBeenCalledWith(`${LISTING}/reviews`, '_blank', 'noopener'));
    await waitFor(() => expect(api.callsTo('/api/v1/reviewTipsClick')[0]?.body).toEqual({ score: '5' }));
    expect(router.state.location.pathname).toBe('/guidance');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'), { timeout: 2000 });
  });

  it('a low rating is not gated: recorded, the public review offered and the feedback form beside it', async () => {
    resetAppConfig();
    const api = mockApi({
      '/api/v1/saveNewGuideCfg': { ack: 1, code: '200' },
      '/api/v1/reviewTipsClick': { code: '200' },
      '/api/v1/getThisUserEmail': { code: '200', data: { email: 'o@example.com', name: 'O' } },
      '/app-config': { app_store_url: LISTING },
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/guidance');
    await toStep(5);
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish' }));
    fireEvent.click(await screen.findByRole('button', { name: '2 stars' }));
    await waitFor(() => expect(api.callsTo('/api/v1/reviewTipsClick')[0]?.body).toEqual({ score: '2' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith(`${LISTING}/reviews`, '_blank', 'noopener'));
    expect(await screen.findByText('Contact us')).toBeTruthy();
  });

  it('saves with every image type unticked: compression off, Success, no Error', async () => {
    const api = mockApi({ '/api/v1/saveNewGuideCfg': { ack: 1, code: '200' } });
    renderApp('/guidance');
    await toStep(2);
    for (const label of ['Product images', 'Blog post images', 'Collection images'])
      fireEvent.click(screen.getByLabelText(label));
    for (let i = 2; i < 5; i++) next();
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish' }));
    expect(await screen.findByText('Success')).toBeTruthy();
    expect(screen.queryByText('Error')).toBeNull();
    expect(api.callsTo('/api/v1/saveNewGuideCfg')[0]?.body).toMatchObject({
      settings: { image_opt: { switch: 0, product: 0, collection: 0, blogs: 0 } },
    });
    expect(screen.getByText('All set! How is your experience so far?')).toBeTruthy();
  });

  it('on a failed save shows Error and goes to /image_optimisation after 1 s', async () => {
    mockApi({ '/api/v1/saveNewGuideCfg': { ack: 0, message: 'nope' } });
    const { router } = renderApp('/guidance');
    await toStep(5);
    const started = Date.now();
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish' }));
    expect(await screen.findByText('Error')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/image_optimisation'), { timeout: 2000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('automatic mode is a choice on the image-types step, manual until the merchant picks it', async () => {
    const api = mockApi({ '/api/v1/saveNewGuideCfg': { ack: 1, code: '200' } });
    renderApp('/guidance');
    await toStep(2);
    expect(screen.getByLabelText<HTMLInputElement>('Manual').checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Automatic').checked).toBe(false);
    fireEvent.click(screen.getByLabelText('Automatic'));
    next();
    // Alt text starts on, only for images without alt text; file names start off.
    expect(screen.getByLabelText<HTMLInputElement>('Write alt text from templates').checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Only for images without Alt text').checked).toBe(true);
    next();
    expect(screen.getByLabelText<HTMLInputElement>('Rename image files from templates').checked).toBe(false);
    next();
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish' }));
    await waitFor(() => expect(api.callsTo('/api/v1/saveNewGuideCfg')[0]?.body).toMatchObject({ settings: { auto_switch: 1 } }));
  });

  it('an unknown placeholder is named at the field and blocks Next', async () => {
    mockApi({});
    renderApp('/guidance');
    await toStep(3);
    fireEvent.change(screen.getByLabelText('Product alt text template'), { target: { value: '%product_title% by %vendor%' } });
    expect(
      await screen.findByText('Unknown placeholder: %vendor%. Templates can use only the placeholders offered under the field.'),
    ).toBeTruthy();
    await act(() => new Promise((r) => setTimeout(r, 150))); // the 100 ms tag debounce
    next();
    expect(screen.getByText('Step 2 of 4')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Product alt text template'), {
      target: { value: '%product_title% by %product_vendor%' },
    });
    await act(() => new Promise((r) => setTimeout(r, 150)));
    expect(screen.queryByText(/Unknown placeholder/)).toBeNull();
    next();
    expect(screen.getByText('Step 3 of 4')).toBeTruthy();
  });

  it('previews alt text and file name for the first synced product as the merchant types', async () => {
    const sample = {
      ack: 1,
      data: {
        shop_name: 'Dev Store',
        product: {
          item: { title: 'Astronaut Portrait Print', vendor: 'Orbit', productType: 'Poster', price: '49.00', variant: 'A3' },
          ext: 'png',
        },
        collection: null,
        blogs: { item: { title: 'How we print', blogTitle: 'News' }, ext: 'jpg' },
      },
    };
    const api = mockApi({ '/api/v2/image-opt/getTemplateSample': sample });
    renderApp('/guidance');
    await toStep(3);
    expect((await screen.findAllByText('Preview for “Astronaut Portrait Print”')).length).toBeGreaterThan(0);
    expect(screen.getByText('Alt text: Astronaut Portrait Print-Dev Store')).toBeTruthy();
    expect(screen.getByText('Alt text: How we print-Dev Store')).toBeTruthy();
    // No collection yet: the placeholder names stand in, and the preview says so.
    expect(screen.getByText('Preview with sample values: no collection has synced yet.')).toBeTruthy();
    expect(screen.getByText('Alt text: Collection title-Dev Store')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Product alt text template'), { target: { value: '%product_title% by %vendor%' } });
    expect(screen.getByText('Alt text: Astronaut Portrait Print by')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Product alt text template'), {
      target: { value: '%product_title% by %product_vendor% (%product_type%, %price%)' },
    });
    expect(screen.getByText('Alt text: Astronaut Portrait Print by Orbit (Poster, 49.00)')).toBeTruthy();
    await act(() => new Promise((r) => setTimeout(r, 150)));
    next();
    fireEvent.click(screen.getByLabelText('Rename image files from templates'));
    expect(await screen.findByText('File name: astronaut-portrait-print-dev-store.png')).toBeTruthy();
    expect(api.callsTo('/api/v2/image-opt/getTemplateSample')).toHaveLength(1);
  });
});
