import { atom } from 'jotai';

// What opens the contact / feedback form (support/contact-form.tsx). Any screen opens it through
// contactFormAtom, optionally prefilled (quota-increase requests, low ratings); `path` records where the
// request came from (without a chat widget this form is the channel). Kept apart from the form so that
// opening it needs none of the form's code: the shell loads the form when it is opened (issue 26).
export type ContactRequest = { title?: string; description?: string; path?: string; feedback?: boolean };
export const contactFormAtom = atom<ContactRequest | null>(null);
