import { BlockStack, Card, List, Text } from '@shopify/polaris';
import { Page } from '../shell/page';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../hooks/use-app-config';
import '../support/strings';

// 'share' names who receives what (decisions.md "Claims": the recommendations frame gets the owner's email).
const SECTIONS = ['collect', 'use', 'share', 'rights', 'retention', 'contact'] as const;
const COLLECTED = ['name', 'email', 'phone', 'products', 'blogs', 'collections', 'scripts', 'theme'] as const;

/** /privacy-policy: the static privacy policy (public, no session needed). */
export function PrivacyPolicyScreen() {
  const { t } = useTranslation();
  // The contact address comes from the Worker's configuration (PRIVACY_CONTACT_EMAIL); without one the
  // policy points at the App Store listing's support address and the in-app form.
  const email = useAppConfig().privacy_contact_email;
  return (
    <Page narrowWidth title={t('privacy.title')}>
      <Card>
        <BlockStack gap="500">
          <Text as="p">{t('privacy.intro')}</Text>
          {SECTIONS.map((s) => (
            <BlockStack key={s} gap="200">
              <Text as="h2" variant="headingMd">
                {t(`privacy.${s}.title`)}
              </Text>
              {s === 'contact' && email ? (
                <Text as="p">
                  {t('privacy.contact.bodyEmail', { email: '\u0000' })
                    .split('\u0000')
                    .flatMap((part, i) =>
                      i === 0
                        ? [part]
                        : [
                            <a key={i} href={`mailto:${email}`}>
                              {email}
                            </a>,
                            part,
                          ],
                    )}
                </Text>
              ) : (
                <Text as="p">{t(`privacy.${s}.body`)}</Text>
              )}
              {/* What shop/redact keeps: the free quota and the offer are once per store (decisions.md "Money
                  shown is money charged", worker/db/redacted-shops.ts). */}
              {s === 'retention' && <Text as="p">{t('privacy.retention.kept')}</Text>}
              {s === 'collect' && (
                <List>
                  {COLLECTED.map((c) => (
                    <List.Item key={c}>{t(`privacy.collect.items.${c}`)}</List.Item>
                  ))}
                </List>
              )}
            </BlockStack>
          ))}
        </BlockStack>
      </Card>
    </Page>
  );
}
