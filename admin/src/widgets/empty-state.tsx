import { BlockStack, Box, Text } from '@shopify/polaris';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { emptyStateStyles as styles } from './polaris-parts';

// Polaris' EmptyState for the shell's "no session" screen and the recommendations' empty tab (issue 26:
// first-screen JavaScript: the shell is in every screen's entry): the same markup and classes
// (tests/admin/screen-markup.test.tsx), the image's skeleton until it has loaded, without Polaris'
// EmptyState and Image modules (about 0.7 KB gzipped). What it takes of Polaris' props: a heading, the
// text, an image.

type Props = { heading?: string; image: string; children?: ReactNode };

const classes = (...names: (string | false)[]) => names.filter(Boolean).join(' ');

export function EmptyState({ heading, image, children }: Props) {
  const [loaded, setLoaded] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    if (img.current?.complete) setLoaded(true);
  }, []);
  return (
    <Box paddingInlineStart="0" paddingInlineEnd="0" paddingBlockStart="500" paddingBlockEnd="1600">
      <BlockStack inlineAlign="center">
        <div className={classes(styles.ImageContainer, !loaded && styles.SkeletonImageContainer)}>
          <img
            ref={img}
            alt=""
            src={image}
            className={classes(styles.Image, loaded && styles.loaded)}
            onLoad={() => setLoaded(true)}
            role="presentation"
          />
          <div className={classes(styles.SkeletonImage, loaded && styles.loaded)} />
        </div>
        {(heading || children) && (
          <Box maxWidth="400px">
            <BlockStack inlineAlign="center">
              <Box paddingBlockEnd="400">
                {heading && (
                  <Box paddingBlockEnd="150">
                    <Text variant="headingMd" as="p" alignment="center">
                      {heading}
                    </Text>
                  </Box>
                )}
                {children && (
                  <Text as="span" alignment="center" variant="bodySm">
                    {children}
                  </Text>
                )}
              </Box>
            </BlockStack>
          </Box>
        )}
      </BlockStack>
    </Box>
  );
}
