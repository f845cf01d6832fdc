/// <reference types="vite/client" />
// Committed test images (tests/fixtures/images, licences in LICENSES.md), inlined by Vite as data URLs
// because workerd has no access to the host file system.
const inlined = import.meta.glob<string>('../../fixtures/images/*.{jpg,png,webp}', {
  query: '?inline',
  import: 'default',
  eager: true,
});

export function fixture(name: string): Uint8Array {
  const url = inlined[`../../fixtures/images/${name}`];
  if (!url) throw new Error(`no fixture ${name}`);
  const b64 = url.slice(url.indexOf(',') + 1);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}
