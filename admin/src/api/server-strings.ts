// The Worker's error texts in English (en.json's `server` part), handed to i18next when an answer carries
// a keyed message (api/error-text.ts: serverTextsFor), not with the entry (issue 26: first-screen
// JavaScript). The other languages' catalogues have them with the rest of the language.
import { server } from '../../locales/en.json';
import { addEnglish } from '../i18n';

addEnglish({ server });
