import { Banner } from '../widgets/banner';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCountdown, msUntil } from '../lib/countdown';
import './strings';

/**
 * New-user discount with its hh:mm:ss countdown: ticks every second while the
 * rebate expiry is after now, and reloads the page when it reaches zero so prices update.
 */
export function DiscountBanner({
  expiresAt,
  rate,
  months,
  reload = () => window.location.reload(),
}: {
  expiresAt: number | string;
  rate: number;
  months: number;
  reload?: () => void;
}) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(() => msUntil(expiresAt, Date.now()));

  useEffect(() => {
    if (msUntil(expiresAt, Date.now()) <= 0) return;
    const id = setInterval(() => {
      const now = msUntil(expiresAt, Date.now());
      setLeft(now);
      if (now <= 0) {
        clearInterval(id);
        reload();
      }
    }, 1000);
    return () => clearInterval(id);
  }, [expiresAt, reload]);

  if (left <= 0) return null;
  return (
    <Banner tone="success" title={t('pricing.discount.title', { rate, months })}>
      <p>
        {t('pricing.discount.endsIn')} {/* Seconds: the Worker rendered it a moment before the browser hydrates it (issue 26). */}
        <strong data-testid="countdown" suppressHydrationWarning>
          {formatCountdown(left)}
        </strong>
      </p>
    </Banner>
  );
}
