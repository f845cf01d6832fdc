import { BlockStack, Box, IndexTable, InlineStack } from '@shopify/polaris';
import { Fragment, type ReactNode } from 'react';

/**
 * A list row's cells: one cell each on a wide screen; on a phone (the table `condensed`) one cell that
 * stacks them, so the row's actions (Details, View, Download, Restore) show without a sideways scroll:
 * picture and name, then the facts, then the actions. `cells` is [picture, name, ...facts, actions].
 */
export function RowCells({ cells, condensed }: { cells: ReactNode[]; condensed: boolean }) {
  if (!condensed)
    return (
      <>
        {cells.map((cell, i) => (
          <IndexTable.Cell key={i}>{cell}</IndexTable.Cell>
        ))}
      </>
    );
  const [picture, name, ...rest] = cells;
  const actions = rest.pop();
  return (
    <IndexTable.Cell>
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center" wrap={false}>
          {picture}
          <Box minWidth="0">{name}</Box>
        </InlineStack>
        <InlineStack gap="300" blockAlign="center" wrap>
          {rest.map((cell, i) => (
            <Fragment key={i}>{cell}</Fragment>
          ))}
        </InlineStack>
        {actions}
      </BlockStack>
    </IndexTable.Cell>
  );
}
