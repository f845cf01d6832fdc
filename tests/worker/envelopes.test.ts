import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInput } from '../../worker/lib/validate';
import { ValidationError } from '../../worker/lib/errors';
import { call, createShop, sessionToken } from './helpers';

describe('health', () => {
  it('answers with a D1 round trip', async () => {
    const res = await call('/api/health');
    expect(res.status).toBe(200);
    const body = await res.json<{ ok: boolean; db: string; migrations: number }>();
    expect(body.ok).toBe(true);
    expect(body.db).toBe('ok');
    expect(body.migrations).toBeGreaterThan(0);
    expect(res.headers.get('X-Request-Id')).toMatch(/^[\w-]{8,64}$/);
  });
});

describe('error envelopes', () => {
  it('v1 calls without credentials get {code, msg} and the App Bridge retry header', async () => {
    const res = await call('/api/v1/getSettingInfo');
    expect(res.status).toBe(401);
    expect(res.headers.get('X-Shopify-Retry-Invalid-Session-Request')).toBe('1');
    expect(await res.json()).toEqual({
      code: '401',
      msg: 'Missing credentials',
      message_key: 'server.auth.missingCredentials',
      params: {},
    });
  });

  it('v2 calls without credentials get {ack: 0, message}', async () => {
    const res = await call('/api/v2/image-opt/getSettings');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      ack: 0,
      message: 'Missing credentials',
      message_key: 'server.auth.missingCredentials',
      params: {},
    });
  });

  it('an admin token shorter than 32 characters is refused before any lookup', async () => {
    const res = await call('/api/v1/getSettingInfo', { headers: { Authorization: 'Bearer short-token' } });
    expect(res.status).toBe(401);
  });

  it('a forged session token is refused', async () => {
    const { shop } = await createShop();
    const forged = await sessionToken(shop.domain, {}, 'not-the-app-secret-0000000000000');
    const res = await call('/api/v1/getSettingInfo', { headers: { Authorization: `Bearer ${forged}` } });
    expect(res.status).toBe(401);
  });

  it('a valid session token and a valid admin token both authenticate the same shop', async () => {
    const { shop, headers } = await createShop();
    const viaAdmin = await (
      await call('/api/v1/getSettingInfo', { headers })
    ).json<{ code: string; data: { shop_owner: string } }>();
    const jwt = await sessionToken(shop.domain);
    const viaJwt = await (
      await call('/api/v1/getSettingInfo', { headers: { Authorization: `Bearer ${jwt}` } })
    ).json<{ data: { shop_owner: string } }>();
    expect(viaAdmin.code).toBe('200');
    expect(viaAdmin.data.shop_owner).toBe(shop.domain);
    expect(viaJwt.data.shop_owner).toBe(shop.domain);
  });

  it('an uninstalled shop is refused even with its old token', async () => {
    const { headers } = await createShop({ uninstalledAt: Date.now() });
    expect((await call('/api/v1/getSettingInfo', { headers })).status).toBe(401);
  });

  it('unknown API paths answer a JSON 404 in the family envelope', async () => {
    const { headers } = await createShop();
    const res = await call('/api/v2/nope', { headers });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ ack: 0, message: 'Not found', message_key: 'server.common.notFound', params: {} });
  });
});

describe('input validation', () => {
  it('keeps a documented message and names the field otherwise', () => {
    // Schemas carry catalogue keys; the error's message is the documented English.
    const schema = z.object({ rule: z.string().min(1, 'server.settings.inputEmpty'), page: z.coerce.number().int().min(1) });
    expect(() => parseInput(schema, { rule: '', page: 1 })).toThrow(new ValidationError('server.settings.inputEmpty'));
    expect(() => parseInput(schema, { rule: 'x', page: -3 })).toThrow(
      new ValidationError('server.common.invalidValueFor', { field: 'page' }),
    );
    expect(parseInput(schema, { rule: 'x', page: '2' })).toEqual({ rule: 'x', page: 2 });
  });
});
