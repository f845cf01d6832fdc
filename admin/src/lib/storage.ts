// Browsers that block third-party storage (Safari's cross-site tracking prevention, strict cookie
// settings) throw on web storage inside the admin frame: then the admin token cannot be kept (it lives in
// the tab's sessionStorage, admin/src/api/auth.ts) and the merchant is sent to the enable-cookies page.
export function storageAvailable(): boolean {
  try {
    const key = '__storage_probe__';
    sessionStorage.setItem(key, '1');
    sessionStorage.removeItem(key);
    return true;
  } catch {
    return false;
  }
}
