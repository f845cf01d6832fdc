// Errors carry a key: every error envelope keeps its documented English text and adds the catalogue key
// (shared/messages.ts) and its params, which the admin translates.
import { describe, expect, it } from 'vitest';
import { english, formatMessage, keyedIssue, msg, verbatim } from '../../shared/messages';
import { apiError, AuthError, NotFoundError, ValidationError } from '../../worker/lib/errors';
import { MAX_IDS_PER_REQUEST } from '../../worker/lib/limits';
import { UPLOAD_MAX_FILES } from '../../worker/optimise/errors';
import { checkUploadFile, rejectionList } from '../../worker/optimise/upload';
import { call, createShop } from './helpers';

type ErrorEnvelope = {
  ack?: number;
  message?: string;
  code?: string;
  msg?: string;
  message_key: string;
  params: Record<string, unknown>;
};

describe('the catalogue', () => {
  it('interpolates params as i18next does and renders a list of keyed messages one after another', () => {
    expect(english('server.upload.tooMany', { count: UPLOAD_MAX_FILES })).toBe('Upload at most 20 images at a time.');
    expect(english('server.optimise.planLimit', { count: 37 })).toBe('There are 37 images that can be optimized.');
    const list = [
      msg('server.upload.notSupported', { name: 'my cat & dog.webp' }),
      msg('server.upload.tooLarge', { name: 'big.png' }),
    ];
    expect(english('server.upload.rejected', { list })).toBe(
      "The following images couldn't be uploaded: my cat & dog.webp is not supported. File type must be .jpg, .png. big.png is too large. Each image must be 5 MB or smaller.",
    );
    expect(formatMessage(verbatim('Price must be greater than 0'))).toBe('Price must be greater than 0');
  });

  it('states the limits the code enforces', () => {
    expect(english('server.limits.tooManyIds')).toContain(String(MAX_IDS_PER_REQUEST));
  });

  it('errors carry key, params and the English text', () => {
    const tooMany = new ValidationError('server.upload.tooMany', { count: 20 });
    expect([tooMany.status, tooMany.key, tooMany.params, tooMany.message]).toEqual([
      400,
      'server.upload.tooMany',
      { count: 20 },
      'Upload at most 20 images at a time.',
    ]);
    expect(new AuthError().keyed).toEqual({ message_key: 'server.auth.unauthorized', params: {} });
    expect(new NotFoundError().message).toBe('Not found');
    expect(apiError(402, 'server.optimise.planLimit', { count: 3 }).message).toBe('There are 3 images that can be optimized.');
  });

  it('reads zod issues: a key with params, a field named by its path, zod text at the root verbatim', () => {
    expect(keyedIssue({ message: 'server.common.pageSizeOneOf', path: ['pageSize'], params: { values: '10, 30' } })).toEqual({
      message_key: 'server.common.pageSizeOneOf',
      params: { values: '10, 30' },
    });
    expect(keyedIssue({ message: 'server.upload.tooMany', path: ['file_list'], maximum: 20 })).toEqual({
      message_key: 'server.upload.tooMany',
      params: { count: 20 },
    });
    expect(keyedIssue({ message: 'Invalid input: expected number', path: ['page', 0] })).toEqual({
      message_key: 'server.common.invalidValueFor',
      params: { field: 'page.0' },
    });
    expect(keyedIssue({ message: 'Invalid input: expected object', path: [] })).toEqual(
      verbatim('Invalid input: expected object'),
    );
  });

  it('an upload refusal names the file in its params', () => {
    const refused = checkUploadFile({ name: 'a.gif', data: 'R0lGODlhAQABAAAAACw=' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.rejected).toEqual({
      name: 'a.gif',
      message: 'a.gif is not supported. File type must be .jpg, .png.',
      message_key: 'server.upload.notSupported',
      params: { name: 'a.gif' },
    });
    expect(rejectionList([refused.rejected])).toEqual([{ message_key: 'server.upload.notSupported', params: { name: 'a.gif' } }]);
  });
});

describe('error envelopes carry message_key and params beside the unchanged English', () => {
  it('a v2 validation failure with a count', async () => {
    const { headers } = await createShop();
    const file_list = Array.from({ length: UPLOAD_MAX_FILES + 1 }, (_, i) => ({ name: `${i}.jpg`, data: '/9j/' }));
    const res = await call('/api/v2/image-opt/uploadImagesOpt', {
      method: 'POST',
      headers,
      json: { file_list, opt_cfg: { pngtojpg: 0, is_watermark: 0 } },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      ack: 0,
      message: 'Upload at most 20 images at a time.',
      message_key: 'server.upload.tooMany',
      params: { count: 20 },
    });
  });

  it('a field named by its path, and a refinement with its params', async () => {
    const { headers } = await createShop();
    const badType = await call('/api/v2/image-opt/getImageOptDataPage?data_type=9', { headers });
    expect(await badType.json()).toMatchObject({
      ack: 0,
      message_key: 'server.common.invalidValueFor',
      params: { field: 'data_type' },
    });
    const badSize = await call('/api/v2/image-opt/getImageOptDataPage?pageSize=7', { headers });
    const body = await badSize.json<ErrorEnvelope>();
    expect(body).toMatchObject({ ack: 0, message_key: 'server.common.pageSizeOneOf' });
    expect(body.message).toBe(`pageSize must be one of ${String(body.params.values)}`);
    expect(body.params.values).toMatch(/^\d+(, \d+)+$/);
  });

  it('a v1 call: {code, msg} plus key and params', async () => {
    const { headers } = await createShop();
    const res = await call('/api/v1/updateLanguage', { method: 'POST', headers, form: { Language: 'xx' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: '400',
      msg: 'Unsupported language',
      message_key: 'server.account.unsupportedLanguage',
      params: {},
    });
  });

  it('every refused file of an upload: the heading and each file by key', async () => {
    const { headers } = await createShop();
    const res = await call('/api/v2/image-opt/uploadImagesOpt', {
      method: 'POST',
      headers,
      json: {
        file_list: [
          { name: 'a.bmp', data: 'Qk0=' },
          { name: 'b.gif', data: 'R0lGODlhAQABAAAAACw=' },
        ],
        opt_cfg: { pngtojpg: 0, is_watermark: 0 },
      },
    });
    const body = await res.json<ErrorEnvelope>();
    expect(body.message).toBe(
      "The following images couldn't be uploaded: a.bmp is not supported. File type must be .jpg, .png. b.gif is not supported. File type must be .jpg, .png.",
    );
    expect(body.message_key).toBe('server.upload.rejected');
    expect(body.params).toEqual({
      list: [
        { message_key: 'server.upload.notSupported', params: { name: 'a.bmp' } },
        { message_key: 'server.upload.notSupported', params: { name: 'b.gif' } },
      ],
    });
  });
});
