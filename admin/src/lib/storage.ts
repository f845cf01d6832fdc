// Browsers that block third-party storage (Safari's cross-site tracking prevention, strict cookie
// settings) throw on localStorage inside the admin frame: then the admin token cannot be kept and the
// merchant is sent to the enable-cookies page.
export function storageAvailable(): boolean {
  try {
    const key = '__storage_probe__';
    localStorage.setItem(key, '1');
    localStorage.removeItem(key);
    return true;
  } catch {
    return false;
  }
}
