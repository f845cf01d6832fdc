// The phone's "..." button of a page header (widgets/header-actions.tsx) is our markup until Polaris' menu
// is fetched on the first touch. A click before that chunk arrives must open the menu once it does. Here
// the chunk arrives only when the test lets it (in a browser it takes a network round trip; without the
// gate happy-dom has it at once and the wait is never seen). The browser test is
// tests/browser/admin/phone-menu.test.ts.
import { AppProvider } from '@shopify/polaris';
import en from '@shopify/polaris/locales/en.json';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { phoneViewport } from './helpers/phone';
import { describe, expect, it, vi } from 'vitest';
import { Page } from '../../admin/src/shell/page';
import { HeaderActions } from '../../admin/src/widgets/header-actions';

let arrive!: () => void;
const arrived = new Promise<void>((resolve) => (arrive = resolve));
vi.mock('@shopify/polaris/build/cjs/components/ActionMenu/ActionMenu.js', async (importOriginal) => {
  await arrived;
  return importOriginal();
});

describe('a page header on a phone', () => {
  it('opens its menu after a click that came before the menu’s code', async () => {
    const phone = phoneViewport();
    try {
      const upload = vi.fn();
      render(
        <AppProvider i18n={en}>
          <Page
            title="Image Optimization"
            secondaryActions={<HeaderActions title="Image Optimization" actions={[{ content: 'Upload', onAction: upload }]} />}
          />
        </AppProvider>,
      );
      fireEvent.click(screen.getByRole('button', { name: 'View actions for Image Optimization' }));
      await act(async () => {
        await new Promise((r) => setTimeout(r, 50)); // the click's render, still without Polaris' menu
        arrive();
      });
      fireEvent.click(await screen.findByRole('button', { name: 'Upload' }));
      expect(upload).toHaveBeenCalledTimes(1);
    } finally {
      phone.mockRestore();
    }
  });
});
