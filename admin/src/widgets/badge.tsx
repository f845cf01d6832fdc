import { Text } from '@shopify/polaris';
import type { ReactNode } from 'react';
import { badgeStyles as styles, useI18n } from './polaris-parts';

// Polaris' <Badge> with a tone and a label, the only way the admin uses it (issue 26: first-screen
// JavaScript; Polaris' Badge carries its progress icons and pip, about 1.5 KB gzipped more). The same
// markup and classes, and the same screen-reader tone label (tests/admin/screen-markup.test.tsx).

type Tone = 'info' | 'success' | 'warning' | 'critical' | 'attention' | 'new';

export function Badge({ tone, children }: { tone?: Tone; children?: ReactNode }) {
  const i18n = useI18n();
  const toneClass = tone && styles[`tone${tone.charAt(0).toUpperCase()}${tone.slice(1)}`];
  const label = tone ? i18n.translate(`Polaris.Badge.TONE_LABELS.${tone}`) : '';
  return (
    <span className={[styles.Badge, toneClass].filter(Boolean).join(' ')}>
      {label && (
        <Text as="span" visuallyHidden>
          {label}
        </Text>
      )}
      {children && (
        <Text as="span" variant="bodySm" fontWeight={tone === 'new' ? 'medium' : undefined}>
          {children}
        </Text>
      )}
    </span>
  );
}
