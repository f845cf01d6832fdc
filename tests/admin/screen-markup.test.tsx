// The screens' thin stand-ins for Polaris components (issue 26: first-screen JavaScript) render Polaris'
// own markup: each is rendered beside the Polaris component it replaces, with the same props, and the HTML
// must be the same (as tests/admin/shell-markup.test.tsx does for the shell's).
import {
  ActionList,
  AppProvider,
  Badge as PolarisBadge,
  Banner as PolarisBanner,
  Button,
  ButtonGroup as PolarisButtonGroup,
  EmptyState as PolarisEmptyState,
  Card,
  Collapsible,
  IndexTable,
  Link,
  Page as PolarisPage,
  Pagination as PolarisPagination,
  Popover,
  ProgressBar as PolarisProgressBar,
  Select as PolarisSelect,
  TextField,
  VideoThumbnail as PolarisVideoThumbnail,
} from '@shopify/polaris';
import { SearchIcon } from '@shopify/polaris-icons';
import { BulkActions as PolarisBulkActions } from '@shopify/polaris/build/cjs/components/BulkActions/BulkActions.js';
import en from '@shopify/polaris/locales/en.json';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import { phoneViewport } from './helpers/phone';
import { describe, expect, it, vi } from 'vitest';
import { DownloadButton } from '../../admin/src/image-opt/details/download-button';
import { IndexTableLoading } from '../../admin/src/image-opt/details/lazy-image-table';
import { ListEmptyState } from '../../admin/src/widgets/list-empty-state';
import { FaqCard } from '../../admin/src/page-speed/faq-card';
import { Page } from '../../admin/src/shell/page';
import { Badge } from '../../admin/src/widgets/badge';
import { Banner } from '../../admin/src/widgets/banner';
import { ButtonGroup } from '../../admin/src/widgets/button-group';
import { EmptyState } from '../../admin/src/widgets/empty-state';
import { SearchField } from '../../admin/src/widgets/search-field';
import { Select } from '../../admin/src/widgets/select';
import { VideoThumbnail } from '../../admin/src/widgets/video-thumbnail';
import { HeaderActions } from '../../admin/src/widgets/header-actions';
import { BulkActions } from '../../admin/src/widgets/lazy-bulk-actions';
import { Pagination } from '../../admin/src/widgets/pagination';
import { ProgressBar } from '../../admin/src/widgets/progress-bar';
import { SectionMenu } from '../../admin/src/widgets/section-menu';

/** The HTML an element renders inside Polaris' AppProvider (not its portals container), React's ids left out. */
function html(element: ReactElement, strip: RegExp[] = []): string {
  const { container, unmount } = render(<AppProvider i18n={en}>{element}</AppProvider>);
  let out = [...container.children]
    .filter((e) => e.id !== 'PolarisPortalsContainer')
    .map((e) => e.outerHTML)
    .join('');
  for (const r of [/ (id|for|aria-labelledby)=":[^"]*"/g, ...strip]) out = out.replace(r, '');
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

describe('ProgressBar renders Polaris ProgressBar markup', () => {
  it.each([
    ['defaults', {}],
    ['small, success, 40 %', { progress: 40, size: 'small', tone: 'success' }],
    ['primary, not animated, above 100', { progress: 130, tone: 'primary', animated: false }],
    ['below 0, labelled', { progress: -5, ariaLabelledBy: 'label-id', size: 'large', tone: 'critical' }],
  ] as const)('%s', (_name, props) => {
    expect(html(<ProgressBar {...props} />)).toBe(html(<PolarisProgressBar {...props} />));
  });

  it('ends with the class of a finished appearance, as Polaris', async () => {
    vi.useFakeTimers();
    try {
      const { container } = render(<ProgressBar progress={50} />);
      const indicator = container.querySelector('.Polaris-ProgressBar__Indicator')!;
      expect(indicator.className).toContain('Polaris-ProgressBar__IndicatorAppearActive');
      await vi.advanceTimersByTimeAsync(500);
      expect(indicator.className).toBe('Polaris-ProgressBar__Indicator Polaris-ProgressBar__IndicatorAppearDone');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('DownloadButton renders a closed Polaris Popover', () => {
  // What Polaris' Popover sets on its closed activator, and React's ids.
  const popoverAttributes = [/ (aria-controls|aria-owns|aria-expanded|data-state|tabindex|id)="[^"]*"/g];

  it('before its menu is loaded', () => {
    expect(html(<DownloadButton fresh={async () => null} />, popoverAttributes)).toBe(
      html(
        <Popover
          active={false}
          onClose={() => {}}
          activator={
            <Button size="slim" disclosure loading={false}>
              Download
            </Button>
          }
        >
          <p>menu</p>
        </Popover>,
        popoverAttributes,
      ),
    );
  });
});

describe('Pagination renders Polaris Pagination markup', () => {
  // What Polaris' Tooltip sets on its activator (a button is in the tab order anyway).
  const tooltipAttributes = [/ (aria-describedby|data-polaris-tooltip-activator)="[^"]*"/g, / tabindex="0"/g];
  const props = { onPrevious: () => {}, onNext: () => {}, previousTooltip: 'Previous', nextTooltip: 'Next' };

  it.each([
    [false, true],
    [true, true],
    [true, false],
    [false, false],
  ])('previous %s, next %s', (hasPrevious, hasNext) => {
    expect(html(<Pagination {...props} hasPrevious={hasPrevious} hasNext={hasNext} />, tooltipAttributes)).toBe(
      html(<PolarisPagination {...props} hasPrevious={hasPrevious} hasNext={hasNext} />, tooltipAttributes),
    );
  });

  it('loads the tooltips when the pointer reaches the buttons, and pages', async () => {
    const onNext = vi.fn();
    render(
      <AppProvider i18n={en}>
        <Pagination {...props} onNext={onNext} hasPrevious={false} hasNext />
      </AppProvider>,
    );
    fireEvent.pointerEnter(screen.getByRole('navigation'));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Next' }).getAttribute('data-polaris-tooltip-activator')).toBe('true'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onNext).toHaveBeenCalledTimes(1);
  });
});

describe('the IndexTable bulk actions, lazy', () => {
  const props = {
    label: '0 selected',
    accessibilityLabel: 'Select all 2 items',
    selected: false,
    onToggleAll: () => {},
    promotedActions: [{ content: 'Restore', onAction: () => {} }],
    buttonSize: 'micro' as const,
  };

  it("render Polaris BulkActions' markup while nothing is selected", () => {
    expect(html(<BulkActions {...props} selectMode={false} />)).toBe(html(<PolarisBulkActions {...props} selectMode={false} />));
  });

  it("are Polaris' own once a row is selected", async () => {
    const onAction = vi.fn();
    const promotedActions = [{ content: 'Restore', onAction }];
    const { rerender } = render(
      <AppProvider i18n={en}>
        <BulkActions {...props} promotedActions={promotedActions} selectMode={false} />
      </AppProvider>,
    );
    expect(screen.queryByRole('button', { name: 'Restore' })).toBeNull();
    rerender(
      <AppProvider i18n={en}>
        <BulkActions {...props} promotedActions={promotedActions} label="1 selected" selected="indeterminate" selectMode />
      </AppProvider>,
    );
    fireEvent.click((await screen.findAllByRole('button', { name: 'Restore' }))[0]!);
    expect(onAction).toHaveBeenCalledTimes(1);
  });
});

describe('the details table while its code loads', () => {
  it.each([false, true])("is Polaris' IndexTable with no rows yet, loading (condensed: %s)", (condensed) => {
    expect(html(<IndexTableLoading condensed={condensed} plural="Images" />)).toBe(
      html(
        <IndexTable
          condensed={condensed}
          resourceName={{ singular: 'Image', plural: 'Images' }}
          itemCount={0}
          loading
          selectedItemsCount={0}
          onSelectionChange={() => {}}
          promotedBulkActions={[{ content: 'Restore', onAction: () => {} }]}
          emptyState={<ListEmptyState loading />}
          headings={[{ title: 'Image' }, { title: 'Saved', alignment: 'end' }]}
        >
          {[]}
        </IndexTable>,
      ),
    );
  });
});

describe('Select renders Polaris Select markup', () => {
  const options = [
    { label: 'English', value: 'en' },
    { label: 'Deutsch', value: 'ge' },
  ];
  it.each([
    ['a label', {}],
    ['a hidden label', { labelHidden: true }],
    ['an inline label', { labelInline: true }],
    ['disabled', { labelHidden: true, disabled: true }],
    ['a value no option has', { value: 'xx' }],
  ])('with %s', (_name, props: { labelHidden?: boolean; labelInline?: boolean; disabled?: boolean; value?: string }) => {
    const all = { label: 'Language', options, value: 'ge', onChange: () => {}, ...props };
    expect(html(<Select {...all} />)).toBe(html(<PolarisSelect {...all} />));
  });

  it('says the value chosen', () => {
    const onChange = vi.fn();
    render(
      <AppProvider i18n={en}>
        <Select label="Language" options={options} value="en" onChange={onChange} />
      </AppProvider>,
    );
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'ge' } });
    expect(onChange).toHaveBeenCalledWith('ge');
  });
});

describe('HeaderActions render Polaris Page header actions markup', () => {
  const title = 'Image Optimization';
  const actions = [
    { content: 'Upload', onAction: () => {} },
    { content: 'Settings', onAction: () => {} },
  ];
  const primaryAction = { content: 'Optimize', onAction: () => {} };
  const ours = () => (
    <Page title={title} primaryAction={primaryAction} secondaryActions={<HeaderActions title={title} actions={actions} />}>
      <p>body</p>
    </Page>
  );
  const polaris = () => (
    <PolarisPage title={title} primaryAction={primaryAction} secondaryActions={actions}>
      <p>body</p>
    </PolarisPage>
  );
  /** Lays the buttons out: each 100 px wide, in a header `room` px wide (happy-dom lays nothing out). */
  function layout(room: number) {
    const width = vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(room);
    const rect = vi
      .spyOn(HTMLElement.prototype, 'getBoundingClientRect')
      .mockReturnValue({ width: 100, height: 36, top: 0, left: 0, right: 100, bottom: 36, x: 0, y: 0, toJSON: () => ({}) });
    return () => {
      width.mockRestore();
      rect.mockRestore();
    };
  }

  it('on a wide screen, where the buttons fit', () => {
    const restore = layout(1000);
    try {
      expect(html(ours())).toBe(html(polaris()));
    } finally {
      restore();
    }
  });

  it("where they do not fit, Polaris' own menu takes over with More actions", async () => {
    const restore = layout(150);
    try {
      render(<AppProvider i18n={en}>{ours()}</AppProvider>);
      await waitFor(() =>
        expect(document.querySelector('.Polaris-ActionMenu-Actions__ActionsLayout')?.textContent).toContain('More actions'),
      );
    } finally {
      restore();
    }
  });

  it('on a phone, and the menu opens on the first click', async () => {
    const spy = phoneViewport();
    const popoverAttributes = [/ (aria-controls|aria-owns|aria-expanded|data-state|tabindex)="[^"]*"/g];
    try {
      expect(html(ours(), popoverAttributes)).toBe(html(polaris(), popoverAttributes));
      const upload = vi.fn();
      render(
        <AppProvider i18n={en}>
          <Page
            title={title}
            secondaryActions={<HeaderActions title={title} actions={[{ content: 'Upload', onAction: upload }]} />}
          />
        </AppProvider>,
      );
      fireEvent.click(screen.getByRole('button', { name: 'View actions for Image Optimization' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Upload' }));
      expect(upload).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('Badge renders Polaris Badge markup', () => {
  it.each([undefined, 'info', 'success', 'warning', 'critical', 'attention', 'new'] as const)('tone %s', (tone) => {
    expect(html(<Badge tone={tone}>Label</Badge>)).toBe(html(<PolarisBadge tone={tone}>Label</PolarisBadge>));
  });
});

describe('SearchField renders Polaris TextField markup', () => {
  const polaris = (value: string) => (
    <TextField
      label="Search by title"
      labelHidden
      placeholder="Search by title"
      prefix={<SearchIcon width={20} />}
      value={value}
      onChange={() => {}}
      autoComplete="off"
      clearButton
      onClearButtonClick={() => {}}
    />
  );
  const ours = (value: string) => <SearchField label="Search by title" value={value} onChange={() => {}} onClear={() => {}} />;

  it.each(['', 'hat'])('value %j', (value) => {
    expect(html(ours(value))).toBe(html(polaris(value)));
  });

  it('focused, as Polaris marks it', () => {
    const focused = (element: ReactElement) => {
      const { container, unmount } = render(<AppProvider i18n={en}>{element}</AppProvider>);
      fireEvent.focus(container.querySelector('input')!);
      const out = container.firstElementChild!.outerHTML.replace(/ (id|for|aria-labelledby)="[^"]*"/g, '');
      unmount();
      return out;
    };
    expect(focused(ours('hat'))).toBe(focused(polaris('hat')));
  });

  it('types and clears', () => {
    const onChange = vi.fn();
    const onClear = vi.fn();
    render(
      <AppProvider i18n={en}>
        <SearchField label="Search by title" value="hat" onChange={onChange} onClear={onClear} />
      </AppProvider>,
    );
    fireEvent.change(screen.getByLabelText('Search by title'), { target: { value: 'hats' } });
    expect(onChange).toHaveBeenCalledWith('hats');
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onClear).toHaveBeenCalledTimes(1);
  });
});

describe('VideoThumbnail renders Polaris VideoThumbnail markup', () => {
  it('a picture with a labelled play button', () => {
    const props = { thumbnailUrl: '/poster.jpg', accessibilityLabel: 'Watch the tutorial', onClick: () => {} };
    expect(html(<VideoThumbnail {...props} />)).toBe(html(<PolarisVideoThumbnail {...props} />));
  });
});

describe('the FAQ answers before Polaris Collapsible is loaded', () => {
  it("are Polaris' closed Collapsible, and open on a click", async () => {
    const { container } = render(
      <AppProvider i18n={en}>
        <FaqCard />
      </AppProvider>,
    );
    const closed = html(
      <Collapsible open={false} id="faq-how">
        <p>answer</p>
      </Collapsible>,
    );
    expect(container.querySelector('#faq-how')!.outerHTML).toBe(closed);
    const question = container.querySelector<HTMLButtonElement>('[aria-controls="faq-how"]')!;
    fireEvent.click(question);
    await waitFor(() => expect(container.querySelector('#faq-how')!.getAttribute('aria-hidden')).toBe('false'));
    expect(container.querySelector('#faq-how')!.textContent).not.toBe('');
  });
});

describe('Banner renders Polaris Banner markup', () => {
  type Props = Parameters<typeof Banner>[0];
  const text = <p>Your picture has been restored.</p>;
  const action = { content: 'Upgrade', onAction: () => {} };
  const secondaryAction = { content: 'Remind me later', onAction: () => {} };
  const cases: [string, Props][] = [
    ['no title (icon beside the text)', { children: text }],
    ['no title, dismissable, an action', { tone: 'warning', children: text, onDismiss: () => {}, action }],
    ['a title and text', { tone: 'success', title: 'Discount', children: text }],
    [
      'a title, dismissable, both actions',
      { tone: 'critical', title: 'Limit', children: text, onDismiss: () => {}, action, secondaryAction },
    ],
    ['a title alone, dismissable', { tone: 'info', title: 'Rate us', onDismiss: () => {} }],
    [
      'a link in the text',
      {
        tone: 'info',
        onDismiss: () => {},
        children: (
          <p>
            See <Link onClick={() => {}}>the settings</Link>
          </p>
        ),
      },
    ],
  ];
  it.each(cases)('%s', (_name, props) => {
    expect(html(<Banner {...props} />)).toBe(html(<PolarisBanner {...props} />));
  });

  it.each(cases)('in a card: %s', (_name, props) => {
    expect(
      html(
        <Card>
          <Banner {...props} />
        </Card>,
      ),
    ).toBe(
      html(
        <Card>
          <PolarisBanner {...props} />
        </Card>,
      ),
    );
  });

  it('on a phone (no rounded corners above the text)', () => {
    const phone = phoneViewport();
    try {
      const props: Props = { tone: 'info', title: 'Discount', children: text, onDismiss: () => {} };
      expect(html(<Banner {...props} />)).toBe(html(<PolarisBanner {...props} />));
    } finally {
      phone.mockRestore();
    }
  });

  it('shows the focus ring after a keyboard focus, not after a click, as Polaris', () => {
    const after = (element: ReactElement, event: 'keyUp' | 'mouseUp') => {
      const { container, unmount } = render(<AppProvider i18n={en}>{element}</AppProvider>);
      const banner = container.querySelector<HTMLElement>('.Polaris-Banner')!;
      fireEvent.keyUp(banner);
      if (event === 'mouseUp') fireEvent.mouseUp(banner);
      const out = banner.className;
      unmount();
      return out;
    };
    for (const event of ['keyUp', 'mouseUp'] as const)
      expect(after(<Banner title="Discount">{text}</Banner>, event)).toBe(
        after(<PolarisBanner title="Discount">{text}</PolarisBanner>, event),
      );
    expect(after(<Banner title="Discount">{text}</Banner>, 'keyUp')).toContain('Polaris-Banner--keyFocused');
  });

  it('runs its actions and its dismiss', () => {
    const onAction = vi.fn();
    const onDismiss = vi.fn();
    render(
      <AppProvider i18n={en}>
        <Banner title="Limit" onDismiss={onDismiss} action={{ content: 'Upgrade', onAction }} />
      </AppProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Upgrade' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});

describe('ButtonGroup renders Polaris ButtonGroup markup', () => {
  const buttons = [
    <Button key="a">Desktop</Button>,
    false,
    <Button key="b" variant="plain">
      Mobile
    </Button>,
  ];
  it.each([undefined, 'segmented'] as const)('variant %s', (variant) => {
    expect(html(<ButtonGroup variant={variant}>{buttons}</ButtonGroup>)).toBe(
      html(<PolarisButtonGroup variant={variant}>{buttons}</PolarisButtonGroup>),
    );
  });

  it('marks the item whose button has the focus, as Polaris', () => {
    const focused = (element: ReactElement) => {
      const { container, unmount } = render(<AppProvider i18n={en}>{element}</AppProvider>);
      fireEvent.focus(container.querySelector('button')!);
      const out = container.querySelector('.Polaris-ButtonGroup')!.outerHTML;
      unmount();
      return out;
    };
    expect(focused(<ButtonGroup>{buttons}</ButtonGroup>)).toBe(focused(<PolarisButtonGroup>{buttons}</PolarisButtonGroup>));
    expect(focused(<ButtonGroup>{buttons}</ButtonGroup>)).toContain('Polaris-ButtonGroup__Item--focused');
  });
});

describe('EmptyState renders Polaris EmptyState markup', () => {
  it.each([
    ['a heading and text', { heading: 'No session', children: <p>Open the app from your Shopify admin.</p> }],
    ['a heading alone', { heading: 'Nothing to recommend yet' }],
    ['an image only', {}],
  ])('%s', (_name, props: { heading?: string; children?: ReactElement }) => {
    expect(html(<EmptyState image="/empty.svg" {...props} />)).toBe(html(<PolarisEmptyState image="/empty.svg" {...props} />));
  });

  it('drops the skeleton once the image has loaded, as Polaris', () => {
    const loaded = (element: ReactElement) => {
      const { container, unmount } = render(<AppProvider i18n={en}>{element}</AppProvider>);
      fireEvent.load(container.querySelector('img')!);
      const out = container.querySelector('.Polaris-EmptyState__ImageContainer')!.outerHTML;
      unmount();
      return out;
    };
    expect(loaded(<EmptyState heading="No session" image="/empty.svg" />)).toBe(
      loaded(<PolarisEmptyState heading="No session" image="/empty.svg" />),
    );
    expect(loaded(<EmptyState heading="No session" image="/empty.svg" />)).toContain('Polaris-EmptyState--loaded');
  });
});
