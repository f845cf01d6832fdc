import { BlockStack, Button, Card, Collapsible, Text } from '@shopify/polaris';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const QUESTIONS = ['how', 'helps', 'score'] as const;

/** FAQ: how it works, how it helps, why the speed score did not change. */
export function FaqCard() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
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
              onClick={() => setOpen(open === q ? null : q)}
              ariaExpanded={open === q}
              ariaControls={`faq-${q}`}
            >
              {t(`main.faq.${q}Q`)}
            </Button>
            <Collapsible open={open === q} id={`faq-${q}`}>
              <Text as="p" tone="subdued">
                {t(`main.faq.${q}A`)}
              </Text>
            </Collapsible>
          </BlockStack>
        ))}
      </BlockStack>
    </Card>
  );
}
