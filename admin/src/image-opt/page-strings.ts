// The English strings the image page's first screen shows (issue 26: first-screen JavaScript): these
// branches of the feature's parts, rather than both parts whole. Its later parts, dialogs and the details
// screen bring the rest (./strings).
import { imageDetails, imageOpt } from '../../locales/en.json';
import { addEnglish } from '../i18n';

addEnglish({
  imageOpt: {
    header: imageOpt.header,
    sheet: imageOpt.sheet,
    upload: imageOpt.upload,
    stats: imageOpt.stats,
    plan: imageOpt.plan,
    banner: imageOpt.banner,
    tabs: imageOpt.tabs,
    history: imageOpt.history,
    progress: imageOpt.progress,
    bulk: imageOpt.bulk,
    done: imageOpt.done,
  },
  imageDetails: { optimized: imageDetails.optimized, restored: imageDetails.restored, allRestored: imageDetails.allRestored },
});
