// The shell's stand-ins for Polaris components (issue 26: first-screen JavaScript) render Polaris' own
// markup: each is rendered beside the Polaris component it replaces, with the same props, and the HTML
// must be the same (shell/frame.tsx, shell/page.tsx, widgets/media-card.tsx, shell/modal.tsx). What
// Polaris puts in its portals container ahead of use (the toast manager's empty live region, a closed
// popover's empty anchor) is left out: the stand-ins add it with Polaris' code, the first time it is used.
import {
  AppProvider,
  Box,
  Frame as PolarisFrame,
  MediaCard as PolarisMediaCard,
  Page as PolarisPage,
  Text,
} from '@shopify/polaris';
import en from '@shopify/polaris/locales/en.json';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState, type ReactElement } from 'react';
import { phoneViewport } from './helpers/phone';
import { describe, expect, it, vi } from 'vitest';
import { Frame } from '../../admin/src/shell/frame';
import { Modal } from '../../admin/src/shell/modal';
import { Page, type LitePageProps } from '../../admin/src/shell/page';
import { MediaCard } from '../../admin/src/widgets/media-card';

/** The HTML an element renders inside Polaris' AppProvider (not its portals container). */
function html(element: ReactElement, strip: RegExp[] = []): string {
  const { container, unmount } = render(<AppProvider i18n={en}>{element}</AppProvider>);
  let out = [...container.children]
    .filter((e) => e.id !== 'PolarisPortalsContainer')
    .map((e) => e.outerHTML)
    .join('');
  for (const r of strip) out = out.replace(r, '');
  unmount();
  return out;
}

const pages: [string, LitePageProps][] = [
  ['no header', { children: <p>body</p> }],
  ['narrow, title only', { narrowWidth: true, title: 'Privacy policy', children: <p>body</p> }],
  ['full width, a long title', { fullWidth: true, title: 'A title that is longer than thirty-four characters', children: 'x' }],
  [
    'title, subtitle and an element at the end',
    {
      title: 'Page speed',
      subtitle: 'Forever free',
      secondaryActions: (
        <Box minWidth="180px">
          <Text as="span">Language</Text>
        </Box>
      ),
      children: <p>body</p>,
    },
  ],
  [
    'back arrow, title and subtitle',
    { backAction: { content: 'Back', onAction: () => {} }, title: 'Details', subtitle: 'Red shoes' },
  ],
  ['primary action', { title: 'Pricing', primaryAction: { content: 'Upgrade', onAction: () => {} } }],
  [
    'primary action not primary, with an element',
    { title: 'Settings', primaryAction: { content: 'Save', primary: false }, secondaryActions: <span>x</span> },
  ],
  ['a primary element', { title: 'Short', primaryAction: <button type="button">Go</button> }],
];

describe('shell Page renders Polaris Page markup', () => {
  it.each(pages)('%s', (_name, props) => {
    expect(html(<Page {...props} />)).toBe(html(<PolarisPage {...props} />));
  });

  it.each(pages)('%s, on a phone', (_name, props) => {
    const spy = phoneViewport();
    try {
      expect(html(<Page {...props} />)).toBe(html(<PolarisPage {...props} />));
    } finally {
      spy.mockRestore();
    }
  });
});

describe('shell Frame renders Polaris Frame markup', () => {
  it('around a page', () => {
    const page = <p>content</p>;
    expect(html(<Frame>{page}</Frame>)).toBe(html(<PolarisFrame>{page}</PolarisFrame>));
  });
});

describe('MediaCard renders Polaris MediaCard markup', () => {
  const props = {
    title: 'Watch the tutorial',
    description: 'Two minutes',
    primaryAction: { content: 'Watch', onAction: () => {} },
    secondaryAction: { content: 'Preview', onAction: () => {} },
    size: 'small' as const,
  };
  // What Polaris' Popover sets on its closed activator, and React's ids.
  const popoverAttributes = [/ (aria-controls|aria-owns|aria-expanded|data-state|tabindex|id)="[^"]*"/g];

  it.each([
    ['with a menu', [{ content: 'Dismiss', onAction: () => {} }]],
    ['without a menu', []],
  ])('%s', (_name, popoverActions) => {
    const media = <img alt="" src="data:," />;
    expect(
      html(
        <MediaCard {...props} popoverActions={popoverActions}>
          {media}
        </MediaCard>,
        popoverAttributes,
      ),
    ).toBe(
      html(
        <PolarisMediaCard {...props} popoverActions={popoverActions}>
          {media}
        </PolarisMediaCard>,
        popoverAttributes,
      ),
    );
  });

  it('its menu opens on the first click, before or after its code arrived, and its action runs', async () => {
    const onAction = vi.fn();
    render(
      <AppProvider i18n={en}>
        <MediaCard {...props} popoverActions={[{ content: 'Dismiss', onAction }]} />
      </AppProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Actions' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(onAction).toHaveBeenCalledTimes(1);
  });
});

describe('shell Modal', () => {
  it('loads Polaris Modal when it opens, with its sections', async () => {
    function Opener() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            open
          </button>
          <Modal open={open} onClose={() => setOpen(false)} title="Dialog title">
            <Modal.Section>
              <p>section text</p>
            </Modal.Section>
          </Modal>
        </>
      );
    }
    render(
      <AppProvider i18n={en}>
        <PolarisFrame>
          <Opener />
        </PolarisFrame>
      </AppProvider>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'open' })));
    expect(await screen.findByText('section text')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
