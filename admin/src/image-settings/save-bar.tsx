import type { ShopifyGlobal } from '@shopify/app-bridge-types';
import { createElement, useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';

// App Bridge's contextual save bar (issue 14 point 6): while the settings have unsaved edits, the admin
// shows Save / Discard at the top and itself asks before the merchant leaves through the admin's own
// navigation (which the app's Leave / Stay dialog cannot see). Only when App Bridge is loaded: outside
// the admin the element would be an unknown tag with two bare buttons.
type SaveBarApi = Pick<ShopifyGlobal['saveBar'], 'show' | 'hide'>;

export function saveBarApi(): SaveBarApi | null {
  // The global exists only once App Bridge loaded (its type, from @shopify/app-bridge-types, says always).
  const api = (window as { shopify?: Partial<ShopifyGlobal> }).shopify?.saveBar;
  return api && typeof api.show === 'function' && typeof api.hide === 'function' ? api : null;
}

type Props = { show: boolean; canSave: boolean; saving: boolean; onSave: () => void; onDiscard: () => void };

export function AdminSaveBar({ show, canSave, saving, onSave, onDiscard }: Props) {
  const { t } = useTranslation();
  const id = `settings-save-bar-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const api = saveBarApi();

  useEffect(() => {
    if (!api) return;
    void (show ? api.show(id) : api.hide(id));
  }, [api, id, show]);
  // Hidden when the form goes away (sheet closed, page left).
  useEffect(() => () => void saveBarApi()?.hide(id), [id]);

  if (!api) return null;
  // createElement, not JSX: the tag's typings may come from @shopify/app-bridge-types (issue 14).
  return createElement(
    'ui-save-bar',
    { id },
    createElement(
      'button',
      { variant: 'primary', onClick: onSave, disabled: !canSave || saving, ...(saving ? { loading: '' } : {}) },
      t('common.save'),
    ),
    createElement('button', { onClick: onDiscard, disabled: saving }, t('common.discard')),
  );
}
