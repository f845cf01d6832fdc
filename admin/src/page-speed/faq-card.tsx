import { BlockStack, Button, Card, Text } from '@shopify/polaris';
import { lazy, startTransition, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { collapsibleStyles as styles } from '../widgets/polaris-parts';
import './strings';

const QUESTIONS = ['how', 'helps', 'score'] as const;

// The answers open in Polaris' Collapsible, fetched when the pointer or the focus reaches a question
// (issue 26: first-screen JavaScript). Until then each answer is the markup Polaris' Collapsible renders
// closed, so nothing moves when it arrives; a question clicked before opens once it is there.
const Collapsible = lazy(async () => ({
  default: (await import('@shopify/polaris/build/cjs/components/Collapsible/Collapsible.js')).Collapsible,
}));

/** Polaris' Collapsible while closed: an empty, zero-height block. */
function Closed({ id }: { id: string }) {
  return (
    <div
      id={id}
      style={{ maxHeight: '0px', overflow: 'hidden' }}
      className={`${styles.Collapsible} ${styles.isFullyClosed}`}
      aria-hidden
    />
  );
}

/** FAQ: how it works, how it helps, why the speed score did not change. */
export function FaqCard() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  const [wanted, setWanted] = useState(false);
  const want = () => {
    if (!wanted) startTransition(() => setWanted(true));
  };
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t('main.faq.title')}
        </Text>
        {QUESTIONS.map((q) => (
          <BlockStack key={q} gap="200">
            <Button
              variant="plain"
              textAlign="left"
              disclosure={open === q ? 'up' : 'down'}
              onClick={() => {
                want();
                setOpen(open === q ? null : q);
              }}
              onMouseEnter={want}
              onFocus={want}
              onTouchStart={want}
              ariaExpanded={open === q}
              ariaControls={`faq-${q}`}
            >
              {t(`main.faq.${q}Q`)}
            </Button>
            {wanted ? (
              <Suspense fallback={<Closed id={`faq-${q}`} />}>
                <Collapsible open={open === q} id={`faq-${q}`}>
                  <Text as="p" tone="subdued">
                    {t(`main.faq.${q}A`)}
                  </Text>
                </Collapsible>
              </Suspense>
            ) : (
              <Closed id={`faq-${q}`} />
            )}
          </BlockStack>
        ))}
      </BlockStack>
    </Card>
  );
}
