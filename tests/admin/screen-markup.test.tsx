// The screens' thin stand-ins for Polaris components (issue 26: first-screen JavaScript) render Polaris'
// own markup: each is rendered beside the Polaris component it replaces, with the same props, and the HTML
// must be the same (as tests/admin/shell-markup.test.tsx does for the shell's).
import { ActionList, AppProvider } from '@shopify/polaris';
import en from '@shopify/polaris/locales/en.json';
import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SectionMenu } from '../../admin/src/widgets/section-menu';

/** The HTML an element renders inside Polaris' AppProvider (not its portals container), React's ids left out. */
function html(element: ReactElement, strip: RegExp[] = []): string {
  const { container, unmount } = render(<AppProvider i18n={en}>{element}</AppProvider>);
  let out = [...container.children]
    .filter((e) => e.id !== 'PolarisPortalsContainer')
    .map((e) => e.outerHTML)
    .join('');
  for (const r of [/ id=":[^"]*"/g, ...strip]) out = out.replace(r, '');
  unmount();
  return out;
}

describe('SectionMenu renders Polaris ActionList markup', () => {
  it.each([0, 1])('item %i active', (active) => {
    const items = ['Account', 'Image Optimization Settings'].map((content, i) => ({
      content,
      active: i === active,
      onAction: () => {},
    }));
    expect(html(<SectionMenu items={items} />)).toBe(html(<ActionList items={items} />));
  });

  it('runs the action of the item clicked, and tells when the pointer reaches one', () => {
    const onAction = vi.fn();
    const onIntent = vi.fn();
    render(
      <AppProvider i18n={en}>
        <SectionMenu
          items={[
            { content: 'Account', active: true, onAction: () => {} },
            { content: 'Images', active: false, onAction, onIntent },
          ]}
        />
      </AppProvider>,
    );
    fireEvent.pointerEnter(screen.getByRole('button', { name: 'Images' }));
    expect(onIntent).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Images' }));
    expect(onAction).toHaveBeenCalledTimes(1);
  });
});
