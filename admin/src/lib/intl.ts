// Numbers, prices and dates in the merchant's interface language, through Intl. Our language codes (ge,
// sp, dut, in, ...) are not all BCP 47 tags: the shared table maps each to the tag the browser knows.
import { startTransition, useEffect, useState } from 'react';
import { LANGUAGES } from '../../../shared/languages';
import { serverRender } from '../shell/render-env';

/** The BCP 47 tag of one of our 21 language codes ('en' for anything else). */
export const intlTag = (language: string): string => LANGUAGES.find((l) => l.code === language)?.html ?? 'en';

const num = (v: unknown) => (Number.isFinite(Number(v)) ? Number(v) : 0);

// Building an Intl formatter costs far more than using one (locale data is resolved each time): a list or
// a page of sizes and dates built one per value kept the phone's main thread busy (issue 26). One
// formatter per language and options, made on first use.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let f = formatters.get(key) as F | undefined;
  if (!f) formatters.set(key, (f = make()));
  return f;
}
const numberFormat = (language: string, options: Intl.NumberFormatOptions = {}) => {
  const tag = intlTag(language);
  return cached(`n ${tag} ${JSON.stringify(options)}`, () => new Intl.NumberFormat(tag, options));
};
const dateFormat = (language: string, options: Intl.DateTimeFormatOptions, timeZone: string | undefined) => {
  const tag = intlTag(language);
  // The Worker's render of the first screen has no browser time zone: it writes dates in the one Cloudflare
  // places the request in, and says so on the document; the browser hydrates in that same zone
  // (useTimeZone below), then writes them in its own.
  const server = serverRender();
  if (server) {
    server.timeZoneUsed = true;
    options = { ...options, timeZone: server.timeZone };
  } else if (timeZone) options = { ...options, timeZone };
  return cached(`d ${tag} ${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(tag, options));
};

/** The zone the Worker wrote the document's dates in (main.tsx), until the first move to another screen. */
let hydratingZone: string | undefined;

export function setHydrationTimeZone(zone: string | undefined): void {
  hydratingZone = zone;
}

/**
 * The time zone a component writes its dates in (pass it to formatDateTime / formatDay): undefined, the
 * browser's own, except in the first render of a component React hydrates from the Worker's markup
 * (issue 26), which writes them in the zone the Worker rendered with (the request's, which may differ from
 * the browser's: a VPN, a trip, a dev server). The move to the browser's zone is a transition after that
 * render (a client-only value, as React recommends): the markup is kept, no urgent update reaches a part
 * still waiting to hydrate, and the dates change one render later.
 */
export function useTimeZone(): string | undefined {
  const [zone, setZone] = useState(() => serverRender()?.timeZone ?? hydratingZone);
  useEffect(() => {
    if (zone !== undefined) startTransition(() => setZone(undefined));
  }, [zone]);
  return zone;
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const relativeFormat = (language: string) => {
  const tag = intlTag(language);
  let f = relativeFormats.get(tag);
  if (!f) relativeFormats.set(tag, (f = new Intl.RelativeTimeFormat(tag, { numeric: 'auto' })));
  return f;
};

const WARMED = new Set<string>();

/**
 * The formatters the screens use, built ahead, one per task (issue 26). The first Intl formatter a page
 * builds loads ICU's locale data: 15-20 ms on a desktop, 80-200 ms on a phone, inside whatever render
 * first formats a number (the statistics, the pricing cards), a long task of its own. Called while a
 * screen waits for its data, this pays that in small tasks before the data comes.
 */
export function warmIntl(language: string): void {
  const tag = intlTag(language);
  if (WARMED.has(tag)) return;
  WARMED.add(tag);
  const steps: (() => unknown)[] = [
    // ICU's loading split over several steps (each under 50 ms on a phone; one formatter first paid it all).
    () => new Intl.Locale(tag).maximize(),
    () => new Intl.PluralRules(tag).select(1),
    () => formatDateTime(0, language),
    () => formatDay(1, language),
    () => formatNumber(1, language),
    () => formatSize(1, language),
    () => formatPercent(1, language),
    () => formatPrice(1, language),
    () => relativeFormat(language).format(0, 'second'),
  ];
  const next = () => {
    const step = steps.shift();
    if (!step) return;
    try {
      step();
    } catch {
      // A browser without one of these formats formats with the others; nothing to warm.
    }
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

/**
 * A price in US dollars (Shopify bills apps in USD) as the merchant's language writes it: "$3.99" in
 * English, "3,99 $" in German, "US$3.99" where the language says so.
 */
export function formatPrice(amount: number | string | undefined, language: string): string {
  return numberFormat(language, { style: 'currency', currency: 'USD' }).format(num(amount));
}

/** A count (images, pages) with the language's grouping: 1,000 / 1.000 / 1 000. */
export function formatNumber(value: number | string | undefined, language: string): string {
  return numberFormat(language).format(num(value));
}

const twoDecimals = (value: number, language: string) =>
  numberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);

const MB = 1048576;
const GB = 1073741824;

/**
 * Sizes as the image screens show them: KB below 1 MB (1048576 bytes), MB below 1 GB (1073741824), then
 * GB, the number written as the merchant's language writes it ("1.234,56 KB" in German).
 */
export function formatSize(bytes: number, language = 'en'): string {
  const b = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  if (b < MB) return `${twoDecimals(b / 1024, language)} KB`;
  if (b < GB) return `${twoDecimals(b / MB, language)} MB`;
  return `${twoDecimals(b / GB, language)} GB`;
}

/** A percentage given in percent (45.12 -> "45.12%", "45,12 %" in German, "45,12 %" in French). */
export function formatPercent(percent: number, language = 'en'): string {
  const value = Number.isFinite(percent) ? percent : 0;
  return numberFormat(language, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value / 100);
}

/** A moment (epoch ms or ISO) with date and time, as the merchant's language writes them; '' if unknown. */
export function formatDateTime(value: number | string | null | undefined, language: string, timeZone?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const d = new Date(typeof value === 'number' ? value : String(value));
  if (Number.isNaN(d.getTime())) return '';
  return dateFormat(language, { dateStyle: 'medium', timeStyle: 'short' }, timeZone).format(d);
}

/** A calendar day (e.g. the next quota reset) in the merchant's language; '' when unknown. */
export function formatDay(value: number, language: string, timeZone?: string): string {
  if (!Number.isFinite(value) || value <= 0) return '';
  return dateFormat(language, { dateStyle: 'long' }, timeZone).format(new Date(value));
}

/**
 * How long ago a moment was, as the merchant's language says it ("now", "5 minutes ago", "vor 2 Stunden",
 * "5 分前"); from a day on, the date and time instead. `now` is passed in, so a caller decides when the text
 * moves on.
 */
export function formatTimeAgo(value: number, now: number, language: string, timeZone?: string): string {
  const seconds = Math.max(0, Math.round((now - value) / 1000));
  const relative = relativeFormat(language);
  if (seconds < 45) return relative.format(0, 'second');
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  return formatDateTime(value, language, timeZone);
}
