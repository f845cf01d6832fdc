import { SkeletonBodyText, Text } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';
import '../image-opt/page-strings';

/** An image list's empty state: a skeleton while its page loads, else the documented "no results" line. */
export function ListEmptyState({ loading, roomy = true }: { loading: boolean; roomy?: boolean }) {
  const { t } = useTranslation();
  return (
    <div style={{ padding: roomy ? 'var(--p-space-800)' : 'var(--p-space-600)', textAlign: 'center' }}>
      {loading ? (
        <SkeletonBodyText lines={3} />
      ) : (
        <Text as="p" tone="subdued">
          {t('imageOpt.history.empty')}
        </Text>
      )}
    </div>
  );
}
