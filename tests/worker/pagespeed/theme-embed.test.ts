import { describe, expect, it } from 'vitest';
import {
  EMBED_BLOCK_HANDLE,
  embedDeepLink,
  embedStatusFromSettings,
  embedStatusFromSettingsText,
  isOurBlockType,
  ourEmbed,
  parseSettingsData,
  type OurEmbed,
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
const APP_HANDLE = 'image-optimizer-page-speed';
const OUR_UUID = '0c6f3d8e-5b1a-4a8e-9d2f-7e4b1c9a6f30';
const OURS: OurEmbed = { appHandle: APP_HANDLE };
const OUR_TYPE = `shopify://apps/${APP_HANDLE}/blocks/${EMBED_BLOCK_HANDLE}/${OUR_UUID}`;
// Another app whose embed block is also called `prefetch` (block handles are each app's own choice).
const OTHER_PREFETCH = `shopify://apps/instant-page-prefetch/blocks/${EMBED_BLOCK_HANDLE}/7d1e4c2a-93b5-4f60-8a1d-2c5e9b7f0a48`;

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
    expect(embedStatusFromSettingsText(settingsText({ '168452': { type: OUR_TYPE, disabled: false, settings: {} } }), OURS)).toBe(
      1,
    );
    expect(embedStatusFromSettingsText(settingsText({ '168452': { type: OUR_TYPE, settings: {} } }), OURS)).toBe(1);
  });
  it('honours disabled', () => {
    expect(embedStatusFromSettingsText(settingsText({ '168452': { type: OUR_TYPE, disabled: true, settings: {} } }), OURS)).toBe(
      0,
    );
  });
  it('is off without blocks, without a file, or with only other apps’ embeds', () => {
    expect(embedStatusFromSettingsText(settingsText(undefined), OURS)).toBe(0);
    expect(embedStatusFromSettingsText(null, OURS)).toBe(0);
    expect(embedStatusFromSettingsText('not json', OURS)).toBe(0);
    const others = {
      '1': { type: 'shopify://apps/reviews/blocks/stars/11111111-2222-3333-4444-555555555555', disabled: false },
      '2': {
        type: `shopify://apps/other/blocks/${EMBED_BLOCK_HANDLE}-lite/11111111-2222-3333-4444-555555555555`,
        disabled: false,
      },
      '3': { type: `shopify://apps/other/blocks/${EMBED_BLOCK_HANDLE}`, disabled: false },
    };
    expect(embedStatusFromSettingsText(settingsText(others), OURS)).toBe(0);
  });
  it('is on when any of several copies of our block is enabled', () => {
    const blocks = { a: { type: OUR_TYPE, disabled: true }, b: { type: OUR_TYPE, disabled: false } };
    expect(embedStatusFromSettingsText(settingsText(blocks), OURS)).toBe(1);
  });
  it('reads a preset named by current (older themes)', () => {
    const settings = { current: 'Light', presets: { Light: { blocks: { x: { type: OUR_TYPE, disabled: false } } } } };
    expect(embedStatusFromSettings(settings, OURS)).toBe(1);
    expect(embedStatusFromSettings({ current: 'Missing', presets: {} }, OURS)).toBe(0);
  });
});

describe('only our block counts: our app handle, our block handle, our extension uuid when configured', () => {
  const on = (type: string) => ({ type, disabled: false, settings: {} });
  const off = (type: string) => ({ type, disabled: true, settings: {} });

  it('another app’s enabled `prefetch` block alone: off', () => {
    expect(embedStatusFromSettingsText(settingsText({ '2': on(OTHER_PREFETCH) }), OURS)).toBe(0);
  });
  it('ours disabled and another app’s `prefetch` enabled: off', () => {
    expect(embedStatusFromSettingsText(settingsText({ '1': off(OUR_TYPE), '2': on(OTHER_PREFETCH) }), OURS)).toBe(0);
    expect(embedStatusFromSettingsText(settingsText({ '2': on(OTHER_PREFETCH), '1': off(OUR_TYPE) }), OURS)).toBe(0);
  });
  it('ours enabled: on, beside another app’s `prefetch` on or off', () => {
    expect(embedStatusFromSettingsText(settingsText({ '1': on(OUR_TYPE) }), OURS)).toBe(1);
    expect(embedStatusFromSettingsText(settingsText({ '2': off(OTHER_PREFETCH), '1': on(OUR_TYPE) }), OURS)).toBe(1);
    expect(embedStatusFromSettingsText(settingsText({ '2': on(OTHER_PREFETCH), '1': on(OUR_TYPE) }), OURS)).toBe(1);
  });
  it('with our extension uuid configured, a block of our app handle with another uuid: off; with ours: on', () => {
    const withUuid: OurEmbed = { appHandle: APP_HANDLE, extensionId: OUR_UUID };
    const otherUuid = `shopify://apps/${APP_HANDLE}/blocks/${EMBED_BLOCK_HANDLE}/11111111-2222-3333-4444-555555555555`;
    expect(embedStatusFromSettingsText(settingsText({ '1': on(otherUuid) }), withUuid)).toBe(0);
    expect(embedStatusFromSettingsText(settingsText({ '1': on(otherUuid), '2': on(OUR_TYPE) }), withUuid)).toBe(1);
    // Without a configured uuid, the app handle and the block handle decide.
    expect(embedStatusFromSettingsText(settingsText({ '1': on(otherUuid) }), OURS)).toBe(1);
  });
  it('names are compared exactly: no prefix, other case or missing handle matches', () => {
    expect(isOurBlockType(`shopify://apps/${APP_HANDLE}-staging/blocks/${EMBED_BLOCK_HANDLE}/${OUR_UUID}`, OURS)).toBe(false);
    expect(isOurBlockType(`shopify://apps/${APP_HANDLE.toUpperCase()}/blocks/${EMBED_BLOCK_HANDLE}/${OUR_UUID}`, OURS)).toBe(
      false,
    );
    expect(isOurBlockType(OUR_TYPE, { appHandle: '' })).toBe(false);
    expect(isOurBlockType(OUR_TYPE, { appHandle: APP_HANDLE, extensionId: OUR_UUID.toUpperCase() })).toBe(false);
  });
  it('reads the app handle and the optional uuid from the Worker’s configuration', () => {
    expect(ourEmbed({ SHOPIFY_APP_HANDLE: APP_HANDLE, SHOPIFY_SPEED_PREFETCH_ID: '' })).toEqual({ appHandle: APP_HANDLE });
    expect(ourEmbed({ SHOPIFY_APP_HANDLE: APP_HANDLE, SHOPIFY_SPEED_PREFETCH_ID: ` ${OUR_UUID} ` })).toEqual({
      appHandle: APP_HANDLE,
      extensionId: OUR_UUID,
    });
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
