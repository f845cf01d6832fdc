// Outside links of the dashboard. The tutorial video comes from the Worker's runtime configuration
// (TUTORIAL_VIDEO_URL via GET /app-config, an embeddable URL such as https://www.youtube-nocookie.com/embed/<id>);
// the modal starts it at 115 s, where the demonstration of hover preloading begins.
// Without one, the card keeps its explanation and Preview but offers no video.
export const TUTORIAL_START_SECONDS = 115;

export function tutorialEmbedUrl(configured: string | null | undefined): string | null {
  if (!configured) return null;
  try {
    const url = new URL(configured);
    url.searchParams.set('start', String(TUTORIAL_START_SECONDS));
    url.searchParams.set('autoplay', '1');
    return url.toString();
  } catch {
    return null;
  }
}
