import { Children, isValidElement, useState, type ReactElement, type ReactNode } from 'react';
import { buttonGroupStyles as styles } from './polaris-parts';

// Polaris' ButtonGroup for the screens' first paint (the dashboard's cards, the banners; issue 26:
// first-screen JavaScript): the same markup and classes (tests/admin/screen-markup.test.tsx), each button
// in an item marked while it has the focus, without Polaris' ButtonGroup, its Item and the utilities they
// bring (about 1 KB gzipped). What it takes of Polaris' props: the buttons and the segmented variant.

type Props = { children?: ReactNode; variant?: 'segmented' };

export function ButtonGroup({ children, variant }: Props) {
  const buttons = Children.toArray(children).filter((c): c is ReactElement<{ variant?: string }> => isValidElement(c));
  return (
    <div
      className={variant ? `${styles.ButtonGroup} ${styles.variantSegmented}` : styles.ButtonGroup}
      data-buttongroup-variant={variant}
    >
      {buttons.map((button, i) => (
        <Item key={i} button={button} />
      ))}
    </div>
  );
}

function Item({ button }: { button: ReactElement<{ variant?: string }> }) {
  const [focused, setFocused] = useState(false);
  const className = [styles.Item, focused && styles['Item-focused'], button.props.variant === 'plain' && styles['Item-plain']];
  return (
    <div className={className.filter(Boolean).join(' ')} onFocus={() => setFocused(true)} onBlur={() => setFocused(false)}>
      {button}
    </div>
  );
}
