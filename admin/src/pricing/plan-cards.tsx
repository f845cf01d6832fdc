import { BlockStack, Button, Card, InlineStack, Text } from '@shopify/polaris';
import { Badge } from '../widgets/badge';
import { useTranslation } from 'react-i18next';
import { canStep, paidPlans, stepPlan, type PricingPlan } from '../lib/plan-stepping';
import { formatNumber, formatPrice } from '../lib/intl';
import './strings';

type CardProps = { plans: PricingPlan[]; current: number; busy: number | null; onChoose: (level: number) => void };

/** Free plan card: the downgrade goes through the confirmation modal. */
export function FreePlanCard({ plans, current, busy, onChoose }: CardProps) {
  const { t, i18n } = useTranslation();
  const free = plans.find((p) => p.level === 0);
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between">
          <Text as="h2" variant="headingMd">
            {t('pricing.free.title')}
          </Text>
          {current === 0 && <Badge tone="success">{t('pricing.currentPlan')}</Badge>}
        </InlineStack>
        <Text as="p" variant="heading2xl">
          {formatPrice(0, i18n.language)}
        </Text>
        <Text as="p">{t('pricing.imagesPerMonth', { count: formatNumber(free?.impressions ?? 150, i18n.language) })}</Text>
        <Text as="p" tone="subdued">
          {t('pricing.free.body')}
        </Text>
        <Button disabled={current === 0} loading={busy === 0} onClick={() => onChoose(0)}>
          {current === 0 ? t('pricing.currentPlan') : t('pricing.downgrade')}
        </Button>
      </BlockStack>
    </Card>
  );
}

/**
 * Paid plan card: plus/minus move along the paid plans, never below the first one. During the new-user
 * offer the price says how long it lasts and what follows ("$3.99 for 3 months, then $4.99"), as the
 * subscription's discount bills it (`discountMonths`: rebate_info.discount_period).
 */
export function PaidPlanCard({
  plans,
  current,
  busy,
  onChoose,
  selected,
  onSelect,
  discount,
  discountMonths = 0,
}: CardProps & { selected: number; onSelect: (level: number) => void; discount: boolean; discountMonths?: number }) {
  const { t, i18n } = useTranslation();
  const plan = paidPlans(plans).find((p) => p.level === selected);
  if (!plan) return null;
  const discounted = discount && plan.discount_mPrice !== undefined && Number(plan.discount_mPrice) < Number(plan.price);
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between">
          <Text as="h2" variant="headingMd">
            {t('pricing.paid.title')}
          </Text>
          {current === plan.level && <Badge tone="success">{t('pricing.currentPlan')}</Badge>}
        </InlineStack>
        <InlineStack gap="200" blockAlign="end">
          <Text as="p" variant="heading2xl">
            {formatPrice(discounted ? plan.discount_mPrice : plan.price, i18n.language)}
          </Text>
          {discounted && (
            <Text as="span" tone="subdued" textDecorationLine="line-through">
              {formatPrice(plan.price, i18n.language)}
            </Text>
          )}
          <Text as="span" tone="subdued">
            {t('pricing.perMonth')}
          </Text>
        </InlineStack>
        {discounted && discountMonths > 0 && (
          <Text as="p" tone="subdued">
            {t('pricing.price.discountMonths', {
              discounted: formatPrice(plan.discount_mPrice, i18n.language),
              months: discountMonths,
              price: formatPrice(plan.price, i18n.language),
            })}
          </Text>
        )}
        <InlineStack gap="200" blockAlign="center">
          <Button
            accessibilityLabel={t('pricing.fewer')}
            onClick={() => onSelect(stepPlan(plans, selected, -1))}
            disabled={!canStep(plans, selected, -1)}
          >
            −
          </Button>
          <Text as="span" variant="headingMd">
            {t('pricing.imagesPerMonth', { count: formatNumber(plan.impressions, i18n.language) })}
          </Text>
          <Button
            accessibilityLabel={t('pricing.more')}
            onClick={() => onSelect(stepPlan(plans, selected, 1))}
            disabled={!canStep(plans, selected, 1)}
          >
            +
          </Button>
        </InlineStack>
        <Text as="p" tone="subdued">
          {t('pricing.paid.body')}
        </Text>
        <Button
          variant="primary"
          disabled={current === plan.level}
          loading={busy === plan.level}
          onClick={() => onChoose(plan.level)}
        >
          {current === plan.level ? t('pricing.currentPlan') : plan.level > current ? t('pricing.upgrade') : t('pricing.choose')}
        </Button>
      </BlockStack>
    </Card>
  );
}
