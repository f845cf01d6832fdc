// The English strings of this screen, handed to i18next when its code loads (admin/src/i18n: addEnglish).
import { guide } from '../../locales/en.json';
import { addEnglish } from '../i18n';

addEnglish({ guide });
