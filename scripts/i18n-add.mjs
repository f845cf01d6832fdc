// Adds (or replaces) translated strings in all 21 catalogues at once, so no language is ever missing a
// key. Input: a JSON file {"section.key": {"en": "...", "fr": "...", ... all 21 codes}}.
//   node scripts/i18n-add.mjs strings.json
// Each catalogue is read, merged and written back in one step (several people add strings at once).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const CODES = 'en fr ge it sp dut sv ja zh zh_hant cs da fi ko nb pl pt pt_BR th tr in'.split(' ');
const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/i18n-add.mjs strings.json');
  process.exit(2);
}
const input = JSON.parse(readFileSync(file, 'utf8'));

const problems = [];
for (const [key, byLang] of Object.entries(input)) {
  for (const code of CODES) {
    const v = byLang?.[code];
    if (typeof v !== 'string' || v.trim() === '') problems.push(`${key}: missing ${code}`);
  }
  const extra = Object.keys(byLang ?? {}).filter((c) => !CODES.includes(c));
  if (extra.length) problems.push(`${key}: unknown codes ${extra.join(',')}`);
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}

for (const code of CODES) {
  const path = `admin/locales/${code}.json`;
  const catalogue = JSON.parse(readFileSync(path, 'utf8'));
  for (const [key, byLang] of Object.entries(input)) {
    const parts = key.split('.');
    let node = catalogue;
    for (const p of parts.slice(0, -1)) {
      if (typeof node[p] !== 'object' || node[p] === null) node[p] = {};
      node = node[p];
    }
    node[parts.at(-1)] = byLang[code];
  }
  writeFileSync(`${path}.tmp`, `${JSON.stringify(catalogue, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}
console.log(`Added ${Object.keys(input).length} keys to ${CODES.length} catalogues.`);
