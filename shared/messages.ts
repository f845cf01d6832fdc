// The one catalogue of the Worker's merchant-facing error texts: key -> the documented English text.
// Error envelopes carry the English (`message` / `msg`) plus `message_key` and `params`; the admin
// translates the key with i18next (`t(message_key, params)`), so every key here must exist with the same
// `{{placeholders}}` in all 21 `admin/locales/*.json` (tests/admin/message-catalogue.test.ts).
//
// Texts that come from outside travel verbatim under `server.common.verbatim` with `{ text }`: Shopify's
// own userErrors (already in the store's language), Hono's HTTPException texts, and the webhook
// endpoint's refusals (only Shopify's delivery system reads those).

export const MESSAGES = {
  'server.auth.unauthorized': 'Unauthorized',
  'server.auth.missingCredentials': 'Missing credentials',
  'server.auth.invalidSessionToken': 'Invalid session token',
  'server.auth.sessionTokenRequired': 'A session token is required',
  'server.auth.invalidAdminToken': 'Invalid admin token',
  'server.auth.shopNotInstalled': 'Shop is not installed',
  'server.auth.reauthorise': 'Please authorise the app again to continue.',
  'server.auth.hmacFailed': 'HMAC validation failed',
  'server.auth.requestExpired': 'Request expired',
  'server.auth.invalidOAuthState': 'Invalid OAuth state',
  'server.auth.missingAuthCode': 'Missing authorization code',
  'server.auth.invalidShopDomain': 'Invalid shop domain',

  'server.common.notFound': 'Not found',
  'server.common.internal': 'Internal Server Error',
  'server.common.invalidInput': 'Invalid input',
  'server.common.invalidJson': 'Request body is not valid JSON',
  'server.common.invalidValueFor': 'Invalid value for {{field}}',
  'server.common.shopifyBusy': 'Shopify is busy right now. Please try again in a minute.',
  'server.common.tryAgainLater': 'Try again later',
  'server.common.linkExpired': 'Link expired or invalid',
  'server.common.urlEmpty': 'Url is empty',
  'server.common.noData': 'No data to show here',
  'server.common.pageSizeOneOf': 'pageSize must be one of {{values}}',
  /** A text we did not write (see the top of this file): shown as sent in every language. */
  'server.common.verbatim': '{{text}}',

  'server.billing.unreachable': 'Shopify billing is not reachable right now, please try again later',
  'server.billing.overchargeNeedsPaidPlan': 'Overcharge needs a paid plan',
  'server.billing.capAtHighest': 'The cap is already at its highest',
  'server.billing.overchargeNeedsCappedPlan': 'Overcharge needs a paid plan with a usage cap',
  'server.billing.invalidPlanLevel': 'Invalid plan level',
  'server.billing.alreadyFree': 'You are already on the Free plan',
  'server.billing.alreadyOnPlan': 'You are already on this plan',
  'server.billing.noMatchingPlan': 'The active subscription matches no plan',
  'server.billing.invalidReturn': 'Invalid billing return',

  /** The plan-limit banner text. */
  'server.optimise.planLimit': 'There are {{count}} images that can be optimized.',
  /** Bulk restore / re-optimise with nothing selectable. */
  'server.optimise.selectCorrectState': 'Select the correct state of the image operation',
  /** Originals are kept 30 days; afterwards no restore or re-optimise. */
  'server.optimise.expired':
    'This image has expired: originals are kept for 30 days, so it can no longer be restored or re-optimized.',
  'server.optimise.deleted': 'This image has been deleted and cannot be restored or re-optimized.',
  // getProductImagesData: an item id that is not this shop's (another shop's, or none): the same answer for both.
  'server.optimise.itemNotFound': "This item is not in this store's optimization history.",
  'server.optimise.nothingToOptimise': 'There are no images to optimize.',
  /** Shopify serves a picture the product did not write (decisions.md, "The store changes after we optimise"). */
  'server.optimise.changedNotRestored': 'This image was changed in Shopify after it was optimized, so it was not restored.',
  'server.optimise.changedNotReoptimised':
    'This image was changed in Shopify after it was optimized, so it was not re-optimized.',
  'server.optimise.changedInShopify':
    'This image was changed in Shopify after it was optimized. The new picture is treated as a new original.',
  /** Restore found the original file name taken in Shopify and used the nearest free one. */
  'server.optimise.restoredAs': 'Restored as {{name}}: the name {{original}} is already taken in Shopify.',
  'server.optimise.savedAs': 'Saved as {{name}}: the name {{original}} is already taken in Shopify.',
  /** The engine could do less than the level asked for (worker/images result `limited`): the image's note. */
  'server.optimise.metadataOnly':
    "Only the metadata was removed: at {{mp}} MP this image is too large to re-encode within the optimizer's memory, so its pixels are unchanged.",
  'server.optimise.losslessOnly':
    "Recompressed without loss only: at {{mp}} MP this image is too large to re-encode at the chosen level within the optimizer's memory.",

  /** Upload rules (the type rule verbatim). */
  'server.upload.notSupported': '{{name}} is not supported. File type must be .jpg, .png.',
  'server.upload.tooLarge': '{{name}} is too large. Each image must be 5 MB or smaller.',
  /** Declared pixels above Shopify's 25 MP (worker/images/declared-size.ts). */
  'server.upload.tooManyPixels': '{{name}} is too large. Images can be at most 25 megapixels.',
  'server.upload.none': "haven't uploaded any image",
  'server.upload.tooMany': 'Upload at most {{count}} images at a time.',
  'server.upload.requestTooLarge': 'Upload at most 20 MB of images at a time.',
  /** Every file refused: `list` is the refusals, each a keyed message, joined with a space. */
  'server.upload.rejected': "The following images couldn't be uploaded: {{list}}",

  // shared/image-settings.ts: the documented validation messages, then the ranges the screen offers.
  'server.settings.needOneItem': 'Optimization cannot occur until you have set up at least one item.',
  'server.settings.inputEmpty': 'The input cannot be empty!',
  'server.settings.watermarkRequired': 'Watermark image must be uploaded to save',
  /** Automatic mode switched alone before the settings were ever saved (image-optimisation.md section 4). */
  'server.settings.setUpFirst': 'Finish the image settings first: automatic optimization can be switched once they are saved.',
  'server.settings.watermarkTooLarge': 'watermark picture maximum size 500kb',
  'server.settings.watermarkType': 'File type must be .jpg .jpeg .png.',
  'server.settings.watermarkTooManyPixels': 'Watermark picture can be at most 25 megapixels.',
  'server.settings.watermarkSizeRange': 'Watermark size must be between 1% and 100% of the image height',
  'server.settings.opacityRange': 'Opacity must be between 0.1 and 1',
  'server.settings.levelRange': 'Compression level must be 1, 2 or 3',
  'server.settings.resizeRange': 'Resize must be off or 2048, 2880 or 4096 px',
  'server.settings.customRange': 'Custom quality must be between 55 and 95',
  'server.settings.productScope': 'Product scope must be 0, 1 or 2',
  'server.settings.position': 'Watermark position is not valid',
  /** An alt text or file name template uses something that is not a documented placeholder of its kind. */
  'server.settings.unknownPlaceholder':
    'Unknown placeholder: {{names}}. Templates can use only the placeholders offered under the field.',

  /** The success answer of updateLanguage: the admin shows it in the language just chosen. */
  'server.account.languageUpdated': 'Language updated',
  'server.account.nameEmpty': 'Name should not be empty',
  'server.account.nameTooLong': 'Name is too long',
  'server.account.emailEmpty': 'Email should not be empty',
  'server.account.emailTooLong': 'Email is too long',
  'server.account.invalidEmail': 'Please enter a valid email address',
  'server.account.titleTooLong': 'Title is too long',
  'server.account.descriptionEmpty': 'Description should not be empty',
  'server.account.descriptionTooLong': 'Description is too long',
  'server.account.pathTooLong': 'Path is too long',
  'server.account.invalidKind': 'Invalid message kind',
  'server.account.unsupportedLanguage': 'Unsupported language',
  'server.account.scoreRange': 'Score must be a whole number from 0 to 5',
  'server.account.stFlag': 'st must be 0 or 1',
  'server.account.unknownSwitch': 'Unknown switch',
  'server.account.expNumber': 'exp must be a number',
  'server.account.typeParam': "type must be 'param'",
  'server.account.invalidKey': 'Invalid key',
  'server.account.valueTooLong': 'Value is too long',

  // worker/lib/limits.ts
  'server.limits.bodyTooLarge': 'The request is too large.',
  'server.limits.tooManyIds': 'Select at most 1000 images at a time.',
  'server.limits.tooManyRequests': 'Too many requests. Please try again in a minute.',
  'server.limits.uploadAllowance': "Today's upload allowance is used up. Please try again tomorrow.",
  'server.limits.pagespeedCooldown': 'The page speed score was checked a moment ago. Please try again in a few minutes.',
  'server.limits.reoptimiseAllowance': "Today's re-optimization allowance is used up. Please try again tomorrow.",
  'server.limits.queueBusy': 'Many images are still waiting to be processed. Please try again when they are done.',
  'server.limits.tokenNotFound': 'This token no longer exists.',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** The `{{name}}` placeholders of a text, as a union of names. */
type Placeholders<S extends string> = S extends `${string}{{${infer P}}}${infer Rest}` ? P | Placeholders<Rest> : never;
type ParamNames<K extends MessageKey> = Placeholders<(typeof MESSAGES)[K]>;

/** A key with its params: what an error carries and what the envelope sends as `message_key` / `params`. */
export type KeyedMessage = { message_key: MessageKey; params: MessageParams };
/** Param values: text or numbers; `list` (server.upload.rejected) holds keyed messages shown one after another. */
export type MessageParams = Record<string, string | number | KeyedMessage[]>;
/** The params a key needs, exactly: `{ name }` for server.upload.tooLarge, nothing for a text without placeholders. */
export type ParamsOf<K extends MessageKey> = { [P in ParamNames<K>]: P extends 'list' ? KeyedMessage[] : string | number };
/** Rest arguments after a key: none when the text has no placeholder, else its params. */
export type ParamsArg<K extends MessageKey> = [ParamNames<K>] extends [never] ? [] : [params: ParamsOf<K>];
/** The keys whose text has no placeholder. */
export type PlainMessageKey = { [K in MessageKey]: [ParamNames<K>] extends [never] ? K : never }[MessageKey];

/** A typed key with its params (`msg('server.upload.tooLarge', { name })`). */
export function msg<K extends MessageKey>(key: K, ...params: ParamsArg<K>): KeyedMessage {
  return { message_key: key, params: params[0] ?? {} };
}

/** Whether a string is a key of the catalogue (zod issues carry keys as their message). */
export function isMessageKey(key: unknown): key is MessageKey {
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(MESSAGES, key);
}

/** The English text of a keyed message, interpolated the way i18next does (`{{name}}`). */
export function formatMessage(m: KeyedMessage): string {
  return MESSAGES[m.message_key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const v = m.params[name];
    return Array.isArray(v) ? v.map(formatMessage).join(' ') : String(v ?? '');
  });
}

/** The English text of a key (`english('server.upload.tooMany', { count: 20 })`). */
export function english<K extends MessageKey>(key: K, ...params: ParamsArg<K>): string {
  return formatMessage(msg(key, ...params));
}

/** A text we did not write (Shopify's userErrors, webhook refusals), carried as it is. */
export const verbatim = (text: string): KeyedMessage => msg('server.common.verbatim', { text });

/**
 * A stored English text (an image's fail reason) back as its keyed message, so the admin shows it in the
 * merchant's language; a text of the catalogue's with no placeholder, else verbatim.
 */
export function keyedFromEnglish(text: string): KeyedMessage {
  for (const [key, english] of Object.entries(MESSAGES))
    if (english === text) return { message_key: key as MessageKey, params: {} };
  return verbatim(text);
}

/** What a zod issue offers (kept structural so this module needs no zod). */
type IssueLike = { message: string; path?: readonly PropertyKey[]; params?: Record<string, unknown>; maximum?: unknown };

/**
 * The keyed message of a validation issue. Schemas carry catalogue keys as their messages
 * (`{ error: 'server.settings.position' }`), with params from the issue (`refine(..., { params })`),
 * `{{field}}` from its path and `{{count}}` from a `.max(n, key)` limit. An issue without a key is zod's own: at a field it names the field
 * (server.common.invalidValueFor), at the root its text goes verbatim.
 */
export function keyedIssue(issue: IssueLike | undefined): KeyedMessage {
  if (!issue) return msg('server.common.invalidInput');
  const field = (issue.path ?? []).map(String).join('.');
  if (!isMessageKey(issue.message)) return field ? msg('server.common.invalidValueFor', { field }) : verbatim(issue.message);
  const params: MessageParams = {};
  for (const m of MESSAGES[issue.message].matchAll(/\{\{(\w+)\}\}/g)) {
    const name = m[1] ?? '';
    const v = issue.params?.[name];
    const fallback = name === 'field' ? field : name === 'count' && typeof issue.maximum === 'number' ? issue.maximum : '';
    params[name] = typeof v === 'number' || typeof v === 'string' ? v : fallback;
  }
  return { message_key: issue.message, params };
}
