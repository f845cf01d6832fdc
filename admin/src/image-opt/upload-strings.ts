// The Worker's texts of refused uploads in English, which the upload dialog also shows for the files it
// refuses itself (admin/src/i18n: addEnglish); the rest of the Worker's texts come with the first answer that has one.
import { server } from '../../locales/en.json';
import { addEnglish } from '../i18n';

addEnglish({ server: { upload: server.upload } });
