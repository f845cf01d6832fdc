// The English strings of this screen, handed to i18next when its code loads (admin/src/i18n: addEnglish).
import { recommend } from '../../locales/en.json';
import { addEnglish } from '../i18n';

addEnglish({ recommend });
