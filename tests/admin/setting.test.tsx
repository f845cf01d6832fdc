import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultImageSettings } from '../../shared/image-settings';
import { mockApi, renderApp, settingInfo, type Call } from './helpers/render-app';
import { embedWithAppBridge, leaveAdmin } from './helpers/app-bridge';

afterEach(() => {
  sessionStorage.clear(); // banners seen or closed are remembered for the session
  leaveAdmin();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const settingsAnswer = { ack: 1, data: { ...defaultImageSettings(), is_default: 0 } };
const overchargeSwitch = () => screen.getByRole('switch', { name: 'Overcharge' });

describe('settings (/setting) account', () => {
  it('shows overcharge on only when over quota, capped and paid; a refused change reverts', async () => {
    const api = mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 1, is_capped: 1 } },
      '/api/v2/setting/saveAppSwitch': { ack: 0, message: 'no' },
      '/api/v2/image-opt/getSettings': settingsAnswer,
    });
    renderApp('/setting', { info: settingInfo({ shop_level: 2, new_guide_status: 0 }) });
    await waitFor(() => expect(overchargeSwitch().getAttribute('aria-checked')).toBe('true'));
    expect(screen.getByText('Enabled')).toBeTruthy();
    fireEvent.click(overchargeSwitch());
    expect(overchargeSwitch().getAttribute('aria-checked')).toBe('false'); // applied at once
    expect(await screen.findByText('Try again later')).toBeTruthy();
    expect(overchargeSwitch().getAttribute('aria-checked')).toBe('true'); // reverted
    expect(api.callsTo('/api/v2/setting/saveAppSwitch')[0]?.body).toEqual({
      name: 'is_over_quota',
      st: '0',
      exp: '0',
      type: 'param',
    });
  });

  it('switching on asks first, with the price per 1,000 images and the cap; confirmed, it saves and toasts Succeed', async () => {
    embedWithAppBridge({ idToken: async () => 'session-token' });
    const api = mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 1, capped_amount: 99.8 } },
      '/api/v2/setting/saveAppSwitch': { ack: 1 },
      '/api/v2/image-opt/getSettings': settingsAnswer,
    });
    renderApp('/setting', { info: settingInfo({ shop_level: 1, new_guide_status: 0 }) });
    await waitFor(() => expect((overchargeSwitch() as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByText('Disabled')).toBeTruthy();
    fireEvent.click(overchargeSwitch());
    const dialog = await screen.findByRole('dialog', { name: 'Switch overcharge on?' });
    expect(dialog.textContent).toContain(
      'Shopify bills $4.99 for every 1,000 extra images, at most $99.80 per 30 days (20,000 images)',
    );
    // Cancel changes nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('/api/v2/setting/saveAppSwitch')).toHaveLength(0);
    fireEvent.click(overchargeSwitch());
    fireEvent.click(await screen.findByRole('button', { name: 'Switch on' }));
    expect(await screen.findByText('Succeed')).toBeTruthy();
    expect(overchargeSwitch().getAttribute('aria-checked')).toBe('true');
    expect(api.callsTo('/api/v2/setting/saveAppSwitch')[0]?.body).toMatchObject({ name: 'is_over_quota', st: '1' });
  });

  it('outside the Shopify admin, switching on explains where it is done and saves nothing', async () => {
    const api = mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 1, capped_amount: 99.8 } },
      '/api/v2/image-opt/getSettings': settingsAnswer,
    });
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    renderApp('/setting', { info: settingInfo({ shop_level: 1, new_guide_status: 0 }) });
    await waitFor(() => expect((overchargeSwitch() as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(overchargeSwitch());
    const dialog = await screen.findByRole('dialog', { name: 'Switch overcharge on?' });
    expect(within(dialog).queryByRole('button', { name: 'Switch on' })).toBeNull();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Open in Shopify admin' }));
    expect(assign).toHaveBeenCalledWith('https://demo-store.myshopify.com/admin/apps/test-api-key/setting');
    expect(api.callsTo('/api/v2/setting/saveAppSwitch')).toHaveLength(0);
    expect(overchargeSwitch().getAttribute('aria-checked')).toBe('false');
  });

  it.each([
    ['not capped', 2, { is_over_quota: 1, is_capped: 0 }],
    ['free plan', 0, { is_over_quota: 1, is_capped: 1 }],
  ])('is disabled and shown off when %s', async (_, level, account) => {
    mockApi({ '/api/v2/setting/getAccount': { ack: 1, data: account }, '/api/v2/image-opt/getSettings': settingsAnswer });
    renderApp('/setting', { info: settingInfo({ shop_level: level, new_guide_status: 0 }) });
    await screen.findByText('Disabled');
    expect((overchargeSwitch() as HTMLButtonElement).disabled).toBe(true);
    expect(overchargeSwitch().getAttribute('aria-checked')).toBe('false');
  });

  it('changes the interface language and saves it', async () => {
    const api = mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } },
      '/api/v2/image-opt/getSettings': settingsAnswer,
      '/api/v1/updateLanguage': {
        code: '200',
        msg: 'Language updated',
        message_key: 'server.account.languageUpdated',
        params: {},
      },
    });
    renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.change(await screen.findByLabelText('Language'), { target: { value: 'ge' } });
    expect(await screen.findByText('Konto', { selector: 'h2' })).toBeTruthy();
    // the server's msg, in the language just chosen
    expect((await screen.findAllByText('Sprache aktualisiert')).length).toBeGreaterThan(0);
    expect(api.callsTo('/api/v1/updateLanguage')[0]?.body).toEqual({ Language: 'ge' });
  });
});

describe('settings (/setting) image optimisation section and leave guard', () => {
  it('enables Save only after a change, asks before leaving with unsaved changes', async () => {
    const api = mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } },
      '/api/v2/image-opt/getSettings': settingsAnswer,
      '/api/v2/image-opt/saveSettings': (call: Call) => ({ ack: 1, data: call.body }),
    });
    const { router } = renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save.getAttribute('aria-disabled')).toBe('true');
    // The image settings mount one transition after the account section, then read the settings.
    fireEvent.click(await screen.findByLabelText('Automatic'));
    expect(screen.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).not.toBe('true');

    void router.navigate({ to: '/pricing' });
    expect(await screen.findByText('Your changes have not been saved. Are you sure you want to leave?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() =>
      expect(screen.queryByText('Your changes have not been saved. Are you sure you want to leave?')).toBeNull(),
    );
    expect(router.state.location.pathname).toBe('/setting');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('/api/v2/image-opt/saveSettings')).toHaveLength(1));
    expect(api.callsTo('/api/v2/image-opt/saveSettings')[0]?.body).toMatchObject({ auto_switch: 1 });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).toBe('true'));
    void router.navigate({ to: '/pricing' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
  });

  it('Leave proceeds; manual mode warns; watermark without picture is refused', async () => {
    const api = mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } },
      '/api/v2/image-opt/getSettings': { ack: 1, data: { ...defaultImageSettings(), is_default: 0, auto_switch: 1 } },
    });
    const { router } = renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
    fireEvent.click(await screen.findByLabelText('Manual'));
    expect(screen.getByText('You need to manually optimize in the APP after each change.')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Add a watermark'));
    // Before saving, the reminder (page-speed-and-app.md section 5: 'You should upload watermark picture').
    expect(screen.getByText('You should upload a watermark picture.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText('Watermark image must be uploaded to save')).length).toBeGreaterThan(0);
    expect(api.callsTo('/api/v2/image-opt/saveSettings')).toHaveLength(0);

    void router.navigate({ to: '/main' });
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/main'));
  });

  it('a section switched on without any scope shows the warning and keeps Save disabled; first use says so', async () => {
    mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } },
      '/api/v2/image-opt/getSettings': { ack: 1, data: defaultImageSettings() },
    });
    renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
    expect(await screen.findByText('Finish these settings to start optimizing your images.')).toBeTruthy();
    fireEvent.click(screen.getAllByLabelText('None')[0]!);
    fireEvent.click(screen.getByLabelText('Collection images'));
    fireEvent.click(screen.getByLabelText('Blog post images'));
    expect(screen.getByText('Optimization cannot occur until you have set up at least one item.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByLabelText('Blog post images'));
    expect(screen.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).not.toBe('true');
  });

  it('the first-time banner is shown once: not again on the next visit of the session, and it can be closed', async () => {
    mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } },
      '/api/v2/image-opt/getSettings': { ack: 1, data: defaultImageSettings() },
    });
    const first = renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
    const banner = await screen.findByText('Finish these settings to start optimizing your images.');
    fireEvent.click(within(banner.closest('.Polaris-Banner') as HTMLElement).getByRole('button'));
    await waitFor(() => expect(screen.queryByText('Finish these settings to start optimizing your images.')).toBeNull());
    first.unmount();
    renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
    await screen.findByLabelText('Automatic');
    expect(screen.queryByText('Finish these settings to start optimizing your images.')).toBeNull();
  });

  it('the older settings page: watermark size 1 to 100 %, a stored 0.05 shown as 5 %', async () => {
    const s = defaultImageSettings();
    const api = mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } },
      '/api/v2/image-opt/getSettings': {
        ack: 1,
        data: {
          ...s,
          is_default: 0,
          image_opt: { ...s.image_opt, watermark: { ...s.image_opt.watermark, switch: 1, logo: 'w.png', image_height: 0.05 } },
        },
      },
      '/api/v2/image-opt/saveSettings': (call: Call) => ({ ack: 1, data: call.body }),
    });
    renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
    const slider = await screen.findByLabelText<HTMLInputElement>('Size (% of image height)');
    expect([slider.min, slider.max, slider.value]).toEqual(['1', '100', '5']);
    expect(screen.getByText('5%')).toBeTruthy();
    fireEvent.change(slider, { target: { value: '1' } });
    expect(screen.getByText('1%')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('/api/v2/image-opt/saveSettings')).toHaveLength(1));
    expect(api.callsTo('/api/v2/image-opt/saveSettings')[0]?.body).toMatchObject({
      image_opt: { watermark: { image_height: 0.01 } },
    });
  });

  it('the file name preview of a PNG ends in .jpg while PNG to JPG is on', async () => {
    const s = defaultImageSettings();
    mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } },
      '/api/v2/image-opt/getSettings': {
        ack: 1,
        data: { ...s, is_default: 0, file_name: { ...s.file_name, switch: 1, product_rule: '%product_title%' } },
      },
      '/api/v2/image-opt/getTemplateSample': {
        ack: 1,
        data: { shop_name: 'Dev Store', product: { item: { title: 'Blue Mug' }, ext: 'png' }, collection: null, blogs: null },
      },
    });
    renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
    expect(await screen.findByText('File name: blue-mug.png')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Convert PNG to JPG'));
    expect(await screen.findByText('File name: blue-mug.jpg')).toBeTruthy();
  });

  it('keeps unsaved image settings while the merchant looks at Account', async () => {
    mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } },
      '/api/v2/image-opt/getSettings': settingsAnswer,
    });
    renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
    fireEvent.click(await screen.findByLabelText('Automatic'));
    fireEvent.click(screen.getByRole('button', { name: 'Account' }));
    fireEvent.click(screen.getByRole('button', { name: 'Image Optimization Settings' }));
    expect(screen.getByLabelText<HTMLInputElement>('Automatic').checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).not.toBe('true');
  });
});

describe('settings: first use, the guide, refusals and the save bar', () => {
  const account = { '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } } };

  it('/setting jumps to /image_optimisation while the guide is not completed', async () => {
    mockApi({ ...account, '/api/v2/image-opt/getImgOptTotal': { ack: 0, message: 'x' } });
    const { router } = renderApp('/setting', { info: settingInfo({ new_guide_status: 1 }) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/image_optimisation'));
  });

  it('opened before the shop’s settings are known, /setting renders nothing of itself on its way to /image_optimisation', async () => {
    const api = mockApi({
      ...account,
      '/api/v1/getSettingInfo': { code: '200', data: settingInfo({ new_guide_status: 1 }) },
      '/api/v2/image-opt/getImgOptTotal': { ack: 0, message: 'x' },
    });
    const { router } = renderApp('/setting', { info: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/image_optimisation'));
    // Issue 26: the settings screen (account, image settings) was rendered, and read, before the redirect.
    expect(api.callsTo('/api/v2/setting/getAccount')).toHaveLength(0);
    expect(api.callsTo('/api/v2/image-opt/getSettings')).toHaveLength(0);
  });

  it('first set-up can be saved as it is (defaults accepted, no change needed)', async () => {
    const api = mockApi({
      ...account,
      '/api/v2/image-opt/getSettings': { ack: 1, data: defaultImageSettings() },
      '/api/v2/image-opt/saveSettings': (call: Call) => ({ ack: 1, data: { ...(call.body as object), is_default: 0 } }),
    });
    renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
    await screen.findByText('Finish these settings to start optimizing your images.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).not.toBe('true'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('/api/v2/image-opt/saveSettings')).toHaveLength(1));
    // saved: back to disabled until the next change
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).toBe('true'));
  });

  it('a refused save expands and scrolls to the section at fault', async () => {
    const scrolled: string[] = [];
    const spy = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolled.push(this.getAttribute('data-settings-section') ?? '');
    });
    mockApi({ ...account, '/api/v2/image-opt/getSettings': settingsAnswer });
    renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
    // Alt text on (the default: only for images without alt text) with an empty product template, then
    // the section folded away.
    expect((await screen.findByLabelText<HTMLInputElement>('Write alt text from templates')).checked).toBe(true);
    fireEvent.change(screen.getByLabelText('Product alt text template'), { target: { value: '  ' } });
    await new Promise((r) => setTimeout(r, 150)); // tag debounce
    const altToggle = screen.getByRole('button', { name: 'Image Alt Text' });
    fireEvent.click(altToggle);
    expect(altToggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('The input cannot be empty!')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Image Alt Text' }).getAttribute('aria-expanded')).toBe('true'),
    );
    await waitFor(() => expect(scrolled).toContain('alt'));
    spy.mockRestore();
  });

  it('an unknown placeholder is named at the field as it is typed, and Save sends nothing', async () => {
    const api = mockApi({ ...account, '/api/v2/image-opt/getSettings': settingsAnswer });
    renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
    const field = await screen.findByLabelText('Product alt text template');
    fireEvent.change(field, { target: { value: '%product_title% by %vendor%' } });
    const text = 'Unknown placeholder: %vendor%. Templates can use only the placeholders offered under the field.';
    expect(await screen.findByText(text)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    // The sample read failed (not mocked): the preview says its values are samples.
    expect(screen.getByText('Alt text: Product title by')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 150)); // tag debounce
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText(text)).length).toBeGreaterThan(1); // the field and the toast
    expect(api.callsTo('/api/v2/image-opt/saveSettings')).toHaveLength(0);
  });

  it('embedded: the App Bridge save bar shows with unsaved edits and its Save saves', async () => {
    const saveBar = { show: vi.fn(), hide: vi.fn() };
    (window as unknown as { shopify?: unknown }).shopify = { saveBar };
    try {
      const api = mockApi({
        ...account,
        '/api/v2/image-opt/getSettings': settingsAnswer,
        '/api/v2/image-opt/saveSettings': (call: Call) => ({ ack: 1, data: call.body }),
      });
      renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
      fireEvent.click(await screen.findByRole('button', { name: 'Image Optimization Settings' }));
      fireEvent.click(await screen.findByLabelText('Automatic'));
      await waitFor(() => expect(saveBar.show).toHaveBeenCalled());
      const bar = document.querySelector('ui-save-bar')!;
      expect(saveBar.show).toHaveBeenCalledWith(bar.id);
      (bar.querySelector('button[variant="primary"]') as HTMLButtonElement).click();
      await waitFor(() => expect(api.callsTo('/api/v2/image-opt/saveSettings')).toHaveLength(1));
      await waitFor(() => expect(saveBar.hide).toHaveBeenCalledWith(bar.id));
    } finally {
      delete (window as unknown as { shopify?: unknown }).shopify;
    }
  });
});
