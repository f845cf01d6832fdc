import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { initI18n } from '../../admin/src/i18n';

initI18n('en');
afterEach(() => cleanup());

// Each screen is a lazy route (admin/src/router.tsx) and each catalogue but English a chunk of its own:
// the first test to open one waits for vite to transform it, which on a busy machine can take over
// testing-library's default second. The screens are imported once here; other languages still load on use
// (a German catalogue took over 3 s once at load 13: the wait for what must appear is 10 s).
await Promise.all(Object.values(import.meta.glob('../../admin/src/screens/*.tsx')).map((load) => load()));
// The catalogues the tests switch to, transformed once here too (i18n/index.ts still loads them on use).
await Promise.all(['ge', 'ja'].map((code) => import(`../../admin/locales/${code}.json`)));
configure({ asyncUtilTimeout: 10_000 });
