import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { initI18n } from '../../admin/src/i18n';

initI18n('en');
afterEach(() => cleanup());
