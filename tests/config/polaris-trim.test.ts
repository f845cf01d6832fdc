// The admin build's Polaris trimming (admin/build/polaris-trim.ts, issue 26): a rule goes only when no
// element can match it, and the tokens keep of the default theme the groups Polaris' JavaScript reads.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  lightOnlyTokensSource,
  polarisClassesIn,
  selectorCanMatch,
  splitSelectors,
  themeGroupsReadBy,
  trimCss,
} from '../../admin/build/polaris-trim';

const used = new Set(['Polaris-Button', 'Polaris-Button--pressed', 'Polaris-Card']);

describe('trimCss', () => {
  it('keeps rules of used classes and element rules, drops rules that need an unused class', () => {
    const css =
      ':root,.p-theme-light{--a:1}.p-theme-dark-experimental{--a:2}html{margin:0}' +
      '.Polaris-Button{color:red}.Polaris-IndexTable{color:blue}.Polaris-Button.Polaris-IndexTable__Row{x:1}';
    expect(trimCss(css, used)).toBe(':root,.p-theme-light{--a:1}html{margin:0}.Polaris-Button{color:red}');
  });

  it('keeps the live selectors of a list and never drops for a class under :not()', () => {
    expect(trimCss('.Polaris-Tabs,.Polaris-Card:not(.Polaris-Tabs__Tab){a:b}', used)).toBe(
      '.Polaris-Card:not(.Polaris-Tabs__Tab){a:b}',
    );
    expect(selectorCanMatch('.Polaris-Button:is(.Polaris-X, .Polaris-Y)', used, 'light')).toBe(true);
    expect(selectorCanMatch('.Polaris-X .Polaris-Button', used, 'light')).toBe(false);
  });

  it('trims inside @media and drops an emptied block; @keyframes and strings stay as they are', () => {
    const css =
      '@media (min-width:48em){.Polaris-Tabs{a:b}}@media print{.Polaris-Card{c:d}}' +
      '@keyframes p-spin{to{transform:rotate(1turn)}}.Polaris-Card:after{content:"}{,"}';
    expect(trimCss(css, used)).toBe(
      '@media print{.Polaris-Card{c:d}}@keyframes p-spin{to{transform:rotate(1turn)}}.Polaris-Card:after{content:"}{,"}',
    );
  });

  it('splits selector lists at top-level commas only', () => {
    expect(splitSelectors('a:is(b, c), d[title="x"] , e')).toEqual(['a:is(b, c)', 'd[title="x"]', 'e']);
  });

  it('finds class names in built JavaScript', () => {
    expect([...polarisClassesIn(['var s={"Button":"Polaris-Button","pressed":"Polaris-Button--pressed"}'])]).toEqual([
      'Polaris-Button',
      'Polaris-Button--pressed',
    ]);
  });

  it('keeps every rule of the real stylesheet for the classes in use, and drops the other themes', () => {
    const require = createRequire(import.meta.url);
    const css = readFileSync(require.resolve('@shopify/polaris/build/esm/styles.css'), 'utf8');
    const out = trimCss(css, new Set(['Polaris-Button']));
    expect(out.length).toBeLessThan(css.length / 2);
    expect(out).toContain(':root,.p-theme-light{');
    expect(out).not.toContain('.p-theme-dark-experimental');
    expect(out).toMatch(/\.Polaris-Button\{/);
    expect(out).not.toContain('.Polaris-IndexTable');
    // Balanced braces: nothing was cut in the middle of a block.
    expect(out.split('{').length).toBe(out.split('}').length);
  });
});

describe("the shell's tab bar (admin/src/shell/nav-tabs.tsx)", () => {
  it("uses class names Polaris' stylesheet still styles", async () => {
    const { TAB_CLASSES } = await import('../../admin/src/shell/nav-tab-classes');
    const require = createRequire(import.meta.url);
    const css = readFileSync(require.resolve('@shopify/polaris/build/esm/styles.css'), 'utf8');
    for (const name of Object.values(TAB_CLASSES)) expect(css, name).toMatch(new RegExp(`\\.${name}[^\\w-]`));
  });
});

describe('lightOnlyTokensSource', () => {
  it('keeps the default theme exactly and nothing of the others', async () => {
    const require = createRequire(import.meta.url);
    const id = require.resolve('@shopify/polaris-tokens').replace(/cjs[\\/].*$/, 'esm/build/index.mjs');
    const code = readFileSync(id, 'utf8');
    const out = await lightOnlyTokensSource(code, id);
    expect(out.length).toBeLessThan(code.length / 3);
    expect(out).not.toContain('"dark-experimental": {');
    const real = (await import(id)) as { themes: Record<string, unknown> };
    const kept = /var themes = (\{[\s\S]*?\});\n/.exec(out)![1]!;
    expect(JSON.parse(kept)).toEqual({ light: real.themes.light });
    expect(out).toContain('var themeDefault = themes[themeNameDefault];');
  });

  it('keeps of the default theme exactly the groups named, and fails on a group the theme lacks', async () => {
    const require = createRequire(import.meta.url);
    const id = require.resolve('@shopify/polaris-tokens').replace(/cjs[\\/].*$/, 'esm/build/index.mjs');
    const code = readFileSync(id, 'utf8');
    const real = (await import(id)) as { themes: { light: Record<string, unknown> } };
    const out = await lightOnlyTokensSource(code, id, new Set(['motion', 'zIndex']));
    const kept = JSON.parse(/var themes = (\{[\s\S]*?\});\n/.exec(out)![1]!) as unknown;
    expect(kept).toEqual({ light: { motion: real.themes.light.motion, zIndex: real.themes.light.zIndex } });
    await expect(lightOnlyTokensSource(code, id, new Set(['motion', 'wobble']))).rejects.toThrow(/theme\.wobble/);
  });

  it('finds the groups Polaris reads (never an import path), and refuses a group read by a computed name', () => {
    const polaris = [
      "import { useTheme } from '../../utilities/use-theme.js';",
      'const d = theme.motion["motion-duration-300"]; const z = Number(theme?.zIndex["z-index-11"]);',
      'const o = themeDefault.space["space-500"]; props.children(theme);',
    ];
    expect([...themeGroupsReadBy(polaris)].sort()).toEqual(['motion', 'space', 'zIndex']);
    expect(() => themeGroupsReadBy(['const v = theme[group];'])).toThrow(/computed/);
  });

  it('fails the build when the module no longer has the expected shape', async () => {
    await expect(lightOnlyTokensSource('export const themes = {};', 'x.mjs')).rejects.toThrow(/polaris-trim/);
  });
});
