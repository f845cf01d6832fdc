// The English strings of the rating banner and the re-authorisation request, which the image page shows
// too: only these branches of the dashboard's part (admin/src/i18n: addEnglish; admin/build/english-parts.ts).
import { main } from '../../locales/en.json';
import { addEnglish } from '../i18n';

addEnglish({ main: { review: main.review, reauth: main.reauth } });
