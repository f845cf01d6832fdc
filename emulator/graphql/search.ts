// Shopify's search syntax for `query:` arguments, the subset apps use: `field:value`, comparisons
// (`updated_at:>2026-01-01`), comma lists (`status:active,draft`), negation (`-field:x`, `NOT`),
// quoted values, implicit AND, and bare words matched against the title.

type Term = { field: string | null; op: ':' | '>' | '>=' | '<' | '<='; value: string; negate: boolean };

export function parseSearch(query: string | null | undefined): Term[] {
  if (!query) return [];
  const terms: Term[] = [];
  const re = /(-|NOT\s+)?(?:([a-z_]+):(>=|<=|>|<)?)?("([^"]*)"|'([^']*)'|[^\s()]+)/gi;
  for (const m of query.matchAll(re)) {
    const raw = m[5] ?? m[6] ?? m[4]!;
    if (!m[2] && /^(AND|OR)$/i.test(raw)) continue;
    terms.push({ field: m[2]?.toLowerCase() ?? null, op: (m[3] as Term['op']) ?? ':', value: raw, negate: Boolean(m[1]) });
  }
  return terms;
}

export type FieldGetters<T> = Record<string, (item: T) => string | number | boolean | null | string[]>;

function compare(actual: string | number | boolean | null | string[], term: Term): boolean {
  if (actual === null) return term.value === '' || term.value.toLowerCase() === 'null';
  if (Array.isArray(actual)) return actual.some((a) => a.toLowerCase() === term.value.toLowerCase());
  if (term.op !== ':') {
    const a = typeof actual === 'number' ? actual : Date.parse(String(actual));
    const b = typeof actual === 'number' ? Number(term.value) : Date.parse(term.value);
    if (Number.isNaN(a) || Number.isNaN(b)) return false;
    return term.op === '>' ? a > b : term.op === '>=' ? a >= b : term.op === '<' ? a < b : a <= b;
  }
  const values = term.value.split(',').map((v) => v.toLowerCase());
  const s = String(actual).toLowerCase();
  return values.some((v) => (v.endsWith('*') ? s.startsWith(v.slice(0, -1)) : s === v));
}

export function matchesSearch<T>(item: T, terms: Term[], getters: FieldGetters<T>, text: (item: T) => string): boolean {
  return terms.every((term) => {
    let ok: boolean;
    if (term.field === null) ok = text(item).toLowerCase().includes(term.value.toLowerCase().replace(/\*$/, ''));
    else {
      const get = getters[term.field];
      ok = get ? compare(get(item), term) : true; // Shopify ignores unknown filter fields
    }
    return term.negate ? !ok : ok;
  });
}

export function filterSearch<T>(
  items: T[],
  query: string | null | undefined,
  getters: FieldGetters<T>,
  text: (item: T) => string,
): T[] {
  const terms = parseSearch(query);
  return terms.length ? items.filter((i) => matchesSearch(i, terms, getters, text)) : items;
}
