import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// German speaks to the merchant with the formal "Sie" throughout (brief, issue 15): no du / dein /
// dich / dir / euch, and no informal imperatives ("Prüfe", "versuche es erneut").
const ge = JSON.parse(readFileSync('admin/locales/ge.json', 'utf8')) as Record<string, unknown>;

function* texts(node: unknown, path = ''): Generator<[string, string]> {
  if (typeof node === 'string') yield [path, node];
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) yield* texts(v, path ? `${path}.${k}` : k);
}

const INFORMAL = /\b(du|dich|dir|euch|euer\w*|dein(?!stall)\w*|bist|hast|kannst|musst|willst|solltest)\b/i;
const INFORMAL_IMPERATIVE =
  /\b(versuche|gehe|öffne|prüfe|klicke|speichere|schalte|aktiviere|deaktiviere|nutze|füge|sieh|kontaktiere|warte|bewerte|entdecke|starte)\b(?! ich)/i;

describe('German catalogue', () => {
  it('uses the formal "Sie" everywhere', () => {
    const informal = [...texts(ge)]
      .filter(([, v]) => INFORMAL.test(v) || (INFORMAL_IMPERATIVE.test(v) && !/\bich\b/.test(v)))
      .map(([k, v]) => `${k}: ${v}`);
    expect(informal).toEqual([]);
  });
});
