// The English strings of this feature, handed to i18next when its code loads (admin/src/i18n: addEnglish).
import { setting } from '../../locales/en.json';
import { addEnglish } from '../i18n';

addEnglish({ setting });
