import { useEffect, useRef, type CSSProperties } from 'react';
import { progressBarStyles as styles } from './polaris-parts';

// Polaris' <ProgressBar> without react-transition-group (issue 26: first-screen JavaScript; Polaris'
// bar brings CSSTransition, about 3 KB gzipped, to add two classes). The same markup and classes
// (tests/admin/screen-markup.test.tsx), and the same appearance: once mounted, the indicator gets
// Polaris' "appear active" class after a reflow (it grows from nothing to the progress over the
// duration), then "appear done"; as CSSTransition does, the classes are set on the element, not rendered.

type Props = {
  progress?: number;
  size?: 'small' | 'medium' | 'large';
  tone?: 'highlight' | 'primary' | 'success' | 'critical';
  animated?: boolean;
  ariaLabelledBy?: string;
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Polaris' motion-duration-500 and motion-duration-0 tokens. */
const DURATION_MS = { animated: 500, still: 0 };

export function ProgressBar({ progress = 0, size = 'medium', tone = 'highlight', animated = true, ariaLabelledBy }: Props) {
  const indicator = useRef<HTMLDivElement>(null);
  const duration = animated ? DURATION_MS.animated : DURATION_MS.still;
  useEffect(() => {
    const node = indicator.current;
    if (!node) return;
    void node.scrollTop; // a reflow: the transition starts from the indicator's empty state
    node.classList.add(styles.IndicatorAppearActive);
    const done = setTimeout(() => {
      node.classList.remove(styles.IndicatorAppearActive);
      node.classList.add(styles.IndicatorAppearDone);
    }, duration);
    return () => clearTimeout(done);
    // Once, at mount, as Polaris' appear transition.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const parsed = Math.min(100, Math.max(0, progress));
  const style = {
    '--pc-progress-bar-duration': `${duration}ms`,
    '--pc-progress-bar-percent': parsed / 100,
  } as CSSProperties;
  return (
    <div
      className={[
        styles.ProgressBar,
        styles[`size${capital(size)}` as 'sizeMedium'],
        styles[`tone${capital(tone)}` as 'toneHighlight'],
      ].join(' ')}
    >
      <progress aria-labelledby={ariaLabelledBy} className={styles.Progress} value={parsed} max="100" />
      <div ref={indicator} className={styles.Indicator} style={style}>
        {/* Polaris' own label, for screen readers (hidden by its class). */}
        <span className={styles.Label}>{parsed}%</span>
      </div>
    </div>
  );
}
