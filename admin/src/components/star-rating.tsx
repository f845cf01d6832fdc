import { InlineStack } from '@shopify/polaris';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Five clickable stars (1..5). */
export function StarRating({ onRate }: { onRate: (score: number) => void }) {
  const { t } = useTranslation();
  const [hover, setHover] = useState(0);
  return (
    <InlineStack gap="100">
      {[1, 2, 3, 4, 5].map((n) => (
        <button
          key={n}
          type="button"
          aria-label={t('common.stars', { count: n })}
          onMouseEnter={() => setHover(n)}
          onMouseLeave={() => setHover(0)}
          onClick={() => onRate(n)}
          style={{ background: 'none', border: 0, cursor: 'pointer', fontSize: 26, lineHeight: 1, padding: 2, color: n <= hover ? '#ffb800' : '#c9cccf' }}
        >
          ★
        </button>
      ))}
    </InlineStack>
  );
}
