import { BlockStack, Box, Card, Layout, SkeletonBodyText, SkeletonDisplayText, SkeletonPage } from '@shopify/polaris';

/**
 * The dashboard (/main) while what decides its banners is still on its way (the shop's settings, the
 * new-user offer, the app embed): the same sections at about the same heights (video card, score card,
 * the two embed cards, the questions), so the real page replaces it without moving anything that was
 * already painted (issue 26: CLS at most 0.05).
 */
export function MainSkeleton({ title }: { title: string }) {
  return (
    <SkeletonPage title={title} primaryAction>
      <Layout>
        <Layout.Section>
          <Card>
            <Box minHeight="150px">
              <BlockStack gap="400">
                <SkeletonDisplayText size="small" />
                <SkeletonBodyText lines={3} />
              </BlockStack>
            </Box>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <Card>
            {/* The score card: gauge, when it was checked, legend, Recheck and the score history chart
                (about 490 px of content at 1280 px, 460 px at 390 px). */}
            <Box minHeight="470px">
              <BlockStack gap="400">
                <SkeletonDisplayText size="small" />
                <SkeletonBodyText lines={6} />
              </BlockStack>
            </Box>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <BlockStack gap="400">
            {[0, 1].map((i) => (
              <Card key={i}>
                <BlockStack gap="400">
                  <SkeletonDisplayText size="small" />
                  <SkeletonBodyText lines={3} />
                </BlockStack>
              </Card>
            ))}
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <SkeletonBodyText lines={4} />
          </Card>
        </Layout.Section>
      </Layout>
    </SkeletonPage>
  );
}
