import { videoThumbnailStyles as styles } from './polaris-parts';

// Polaris' <VideoThumbnail> with a picture, a label and a click, the way the dashboard's tutorial card
// uses it (issue 26: first-screen JavaScript; Polaris' also brings the duration formatting and a
// LegacyStack for a timestamp we do not show). The same markup and classes
// (tests/admin/screen-markup.test.tsx).

type Props = { thumbnailUrl: string; accessibilityLabel: string; onClick: () => void };

export function VideoThumbnail({ thumbnailUrl, accessibilityLabel, onClick }: Props) {
  return (
    <div className={styles.ThumbnailContainer}>
      <div className={styles.Thumbnail} style={{ backgroundImage: `url(${thumbnailUrl})` }} />
      <button type="button" className={styles.PlayButton} aria-label={accessibilityLabel} onClick={onClick} />
    </div>
  );
}
