import { describe, expect, it } from 'vitest';
import {
  EMBED_BLOCK_HANDLE,
  embedDeepLink,
  embedStatusFromSettings,
  embedStatusFromSettingsText,
  parseSettingsData,
} from '../../../worker/pagespeed/theme-embed';

// What Shopify writes at the top of a generated config/settings_data.json.
const HEADER = `/*
 * ------------------------------------------------------------
 * IMPORTANT: The contents of this file are auto-generated.
 *
 * This file may be updated by the Shopify admin theme editor
 * or related systems. Please exercise caution as any changes
 * made to this file may be overwritten.
 * ------------------------------------------------------------
 */
`;
const OUR_TYPE = `shopify://apps/image-speed/blocks/${EMBED_BLOCK_HANDLE}/0c6f3d8e-5b1a-4a8e-9d2f-7e4b1c9a6f30`;

function settingsText(blocks: Record<string, unknown> | undefined, header = HEADER): string {
  const current: Record<string, unknown> = { logo_width: 90, sections: { header: { type: 'header', settings: {} } } };
  if (blocks) current.blocks = blocks;
  return header + JSON.stringify({ current, presets: { Default: {} } }, null, 2);
}

describe('parseSettingsData', () => {
  it('strips Shopify’s leading comment and parses the JSON', () => {
    expect(parseSettingsData(settingsText({}))?.current).toMatchObject({ logo_width: 90 });
  });
  it('accepts a file without the comment, with a BOM, or with line comments', () => {
    expect(parseSettingsData('{"current":{}}')).toEqual({ current: {} });
    expect(parseSettingsData('\uFEFF/* x */ {"current":{}}')).toEqual({ current: {} });
    expect(parseSettingsData('// generated\n{"current":{}}')).toEqual({ current: {} });
  });
  it('returns undefined for broken or non-object content', () => {
    expect(parseSettingsData(`${HEADER}{"current": `)).toBeUndefined();
    expect(parseSettingsData('[1,2]')).toBeUndefined();
  });
});

describe('embedStatusFromSettings', () => {
  it('is on when our block is present and not disabled', () => {
    expect(embedStatusFromSettingsText(settingsText({ '168452': { type: OUR_TYPE, disabled: false, settings: {} } }))).toBe(1);
    expect(embedStatusFromSettingsText(settingsText({ '168452': { type: OUR_TYPE, settings: {} } }))).toBe(1);
  });
  it('honours disabled', () => {
    expect(embedStatusFromSettingsText(settingsText({ '168452': { type: OUR_TYPE, disabled: true, settings: {} } }))).toBe(0);
  });
  it('is off without blocks, without a file, or with only other apps’ embeds', () => {
    expect(embedStatusFromSettingsText(settingsText(undefined))).toBe(0);
    expect(embedStatusFromSettingsText(null)).toBe(0);
    expect(embedStatusFromSettingsText('not json')).toBe(0);
    const others = {
      '1': { type: 'shopify://apps/reviews/blocks/stars/11111111-2222-3333-4444-555555555555', disabled: false },
      '2': {
        type: `shopify://apps/other/blocks/${EMBED_BLOCK_HANDLE}-lite/11111111-2222-3333-4444-555555555555`,
        disabled: false,
      },
      '3': { type: `shopify://apps/other/blocks/${EMBED_BLOCK_HANDLE}`, disabled: false },
    };
    expect(embedStatusFromSettingsText(settingsText(others))).toBe(0);
  });
  it('is on when any of several copies of our block is enabled', () => {
    const blocks = { a: { type: OUR_TYPE, disabled: true }, b: { type: OUR_TYPE, disabled: false } };
    expect(embedStatusFromSettingsText(settingsText(blocks))).toBe(1);
  });
  it('reads a preset named by current (older themes)', () => {
    const settings = { current: 'Light', presets: { Light: { blocks: { x: { type: OUR_TYPE, disabled: false } } } } };
    expect(embedStatusFromSettings(settings)).toBe(1);
    expect(embedStatusFromSettings({ current: 'Missing', presets: {} })).toBe(0);
  });
});

describe('embedDeepLink', () => {
  it('opens the theme editor’s App embeds with our block activated', () => {
    expect(embedDeepLink('https://demo.myshopify.com', 'abc123')).toBe(
      `https://demo.myshopify.com/admin/themes/current/editor?context=apps&activateAppId=abc123/${EMBED_BLOCK_HANDLE}`,
    );
  });
  it('works on the store emulator’s per-shop base', () => {
    expect(embedDeepLink('http://127.0.0.1:8788/demo.myshopify.com/', 'k')).toBe(
      `http://127.0.0.1:8788/demo.myshopify.com/admin/themes/current/editor?context=apps&activateAppId=k/${EMBED_BLOCK_HANDLE}`,
    );
  });
});
