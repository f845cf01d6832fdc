import { TextField } from '@shopify/polaris';

/** A new admin token's link, shown once in a read-only field (its own chunk: the card's only TextField). */
export function CreatedTokenLink({ label, link }: { label: string; link: string }) {
  return <TextField label={label} value={link} readOnly autoComplete="off" selectTextOnFocus />;
}
