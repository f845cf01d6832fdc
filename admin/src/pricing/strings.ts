// The English strings of this feature, handed to i18next when its code loads (admin/src/i18n: addEnglish).
import { pricing } from '../../locales/en.json';
import { addEnglish } from '../i18n';

addEnglish({ pricing });
