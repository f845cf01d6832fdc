// The English strings of this feature, handed to i18next when its code loads (admin/src/i18n: addEnglish),
// with the Worker's texts of the settings' rules, which the form shows before it saves.
import { imageSettings, server } from '../../locales/en.json';
import { addEnglish } from '../i18n';

addEnglish({ imageSettings, server: { settings: server.settings } });
