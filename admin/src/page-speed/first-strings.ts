// The English strings the dashboard's first screen shows (issue 26: first-screen JavaScript): these
// branches of the dashboard's part, and the offer's title (the promotion banner) from the plans screen's
// part, rather than both parts whole. The cards shown one transition later bring the rest (./strings).
import { main, pricing } from '../../locales/en.json';
import { addEnglish } from '../i18n';

addEnglish({
  main: {
    title: main.title,
    subtitle: main.subtitle,
    embed: main.embed,
    trustedBy: main.trustedBy,
    promo: main.promo,
    video: main.video,
    score: main.score,
    history: main.history,
  },
  pricing: { discount: pricing.discount },
});
