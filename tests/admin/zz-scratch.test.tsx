import { AppProvider, IndexTable, Text } from '@shopify/polaris';
import en from '@shopify/polaris/locales/en.json';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { it } from 'vitest';

function html(element: ReactElement): string {
  const { container, unmount } = render(<AppProvider i18n={en}>{element}</AppProvider>);
  const out = [...container.children].map((e) => e.outerHTML).join('\n');
  unmount();
  return out;
}
const table = (condensed: boolean, selectable = true) => (
  <IndexTable
    condensed={condensed}
    resourceName={{ singular: 'item', plural: 'items' }}
    itemCount={2}
    loading={false}
    selectable={selectable}
    selectedItemsCount={0}
    onSelectionChange={() => {}}
    promotedBulkActions={[{ content: 'Restore', onAction: () => {} }]}
    headings={[{ title: 'Image' }, { title: 'Saved', alignment: 'end' }]}
  >
    {[1, 2].map((id, index) => (
      <IndexTable.Row id={String(id)} key={id} position={index} selected={false} disabled={id === 2}>
        <IndexTable.Cell>
          <Text as="span">a{id}</Text>
        </IndexTable.Cell>
        <IndexTable.Cell>b{id}</IndexTable.Cell>
      </IndexTable.Row>
    ))}
  </IndexTable>
);
it('dump', () => {
  console.log('TABLE', html(table(false)));
  console.log('CONDENSED', html(table(true)));
});
