/*
 * Bounded-memory libwebp for large WebPs in the Worker (worker/images/libwebp.ts instantiates this
 * standalone wasm without emscripten's JS glue). The whole image lives ONCE in the heap, as the
 * encoder's own YUV 4:2:0 picture (1.5 B/px, +1 B/px alpha): the original is decoded straight into the
 * picture's planes (no RGBA anywhere), the lossy encoder reads it from there, and its output is pushed
 * to the host in chunks (no growing output buffer in the heap). The guard decodes the candidate into a
 * second picture of the same size and the host compares the two Y (+A) planes strip by strip.
 * A picture with real transparency is encoded as colour only (VP8, no ALPH): the host writes the alpha
 * plane itself (webp/alph.ts, a two-pass VP8L encoder over the plane in place) and assembles the file,
 * since libwebp's alpha encoder holds an ARGB copy of the plane and a hash chain over it (~20 B/px).
 * The guard's candidate is decoded by the VP8 decoder row band by row band (wb_decode_rows): the host
 * gets the Y rows as they come and compares them strip by strip, so no second picture is held.
 * Imports:
 *   env.js_emit(stream, buf, len)             a chunk of encoder output
 *   env.js_rows(stream, y, y_stride, y0, n)   rows [y0, y0 + n) of a decoded VP8 luma plane
 */
#include <stdlib.h>
#include <string.h>
#include "src/webp/decode.h"
#include "src/webp/encode.h"
#include "src/dec/vp8_dec.h"

#define IMPORT(n) __attribute__((import_module("env"), import_name(#n)))
#define EXPORT(n) __attribute__((export_name(#n)))

IMPORT(js_emit) extern void js_emit(int stream, const unsigned char *buf, int len);
IMPORT(js_rows) extern void js_rows(int stream, const unsigned char *y, int y_stride, int y0, int n);

EXPORT(wb_malloc) void *wb_malloc(int n) { return malloc((size_t)n); }
EXPORT(wb_free) void wb_free(void *p) { free(p); }

/* out[0..4] = width, height, has_alpha, format (0 mixed/unknown, 1 lossy, 2 lossless), has_animation. */
static int features[5];
EXPORT(wb_features) int *wb_features(const uint8_t *data, int size) {
  WebPBitstreamFeatures f;
  if (WebPGetFeatures(data, (size_t)size, &f) != VP8_STATUS_OK) return NULL;
  features[0] = f.width;
  features[1] = f.height;
  features[2] = f.has_alpha;
  features[3] = f.format;
  features[4] = f.has_animation;
  return features;
}

/* A YUV420 (or YUV420A) picture of width x height; NULL when out of memory. */
EXPORT(wb_pic_new) WebPPicture *wb_pic_new(int width, int height, int alpha) {
  WebPPicture *pic = (WebPPicture *)malloc(sizeof(WebPPicture));
  if (pic == NULL || !WebPPictureInit(pic)) {
    free(pic);
    return NULL;
  }
  pic->use_argb = 0;
  pic->colorspace = alpha ? WEBP_YUV420A : WEBP_YUV420;
  pic->width = width;
  pic->height = height;
  if (!WebPPictureAlloc(pic)) {
    free(pic);
    return NULL;
  }
  return pic;
}

EXPORT(wb_pic_free) void wb_pic_free(WebPPicture *pic) {
  if (pic == NULL) return;
  WebPPictureFree(pic);
  free(pic);
}

/* Plane pointers/strides for the host: [y, y_stride, u, v, uv_stride, a, a_stride]. */
static int planes[7];
EXPORT(wb_pic_planes) int *wb_pic_planes(const WebPPicture *pic) {
  planes[0] = (int)(size_t)pic->y;
  planes[1] = pic->y_stride;
  planes[2] = (int)(size_t)pic->u;
  planes[3] = (int)(size_t)pic->v;
  planes[4] = pic->uv_stride;
  planes[5] = (int)(size_t)pic->a;
  planes[6] = pic->a_stride;
  return planes;
}

/*
 * Decodes a WebP into the picture's planes (libwebp writes YUV(A) into caller memory: lossy files keep
 * their exact decoded YUV, lossless ones are converted). Returns a VP8StatusCode (0 = OK).
 */
EXPORT(wb_decode_into) int wb_decode_into(const uint8_t *data, int size, WebPPicture *pic) {
  WebPDecoderConfig config;
  if (!WebPInitDecoderConfig(&config)) return -1;
  VP8StatusCode st = WebPGetFeatures(data, (size_t)size, &config.input);
  if (st != VP8_STATUS_OK) return st;
  if (config.input.width != pic->width || config.input.height != pic->height) return VP8_STATUS_INVALID_PARAM;
  const int alpha = pic->a != NULL;
  WebPYUVABuffer *buf = &config.output.u.YUVA;
  config.output.colorspace = alpha ? MODE_YUVA : MODE_YUV;
  config.output.is_external_memory = 1;
  config.output.width = pic->width;
  config.output.height = pic->height;
  const int uv_h = (pic->height + 1) / 2;
  buf->y = pic->y;
  buf->y_stride = pic->y_stride;
  buf->y_size = (size_t)pic->y_stride * pic->height;
  buf->u = pic->u;
  buf->v = pic->v;
  buf->u_stride = buf->v_stride = pic->uv_stride;
  buf->u_size = buf->v_size = (size_t)pic->uv_stride * uv_h;
  buf->a = alpha ? pic->a : NULL;
  buf->a_stride = alpha ? pic->a_stride : 0;
  buf->a_size = alpha ? (size_t)pic->a_stride * pic->height : 0;
  st = WebPDecode(data, (size_t)size, &config);
  WebPFreeDecBuffer(&config.output); /* no-op for external memory */
  return st;
}

typedef struct {
  int stream;
  uint8_t buf[65536];
  int len;
} out_chunks;

static int write_chunks(const uint8_t *data, size_t size, const WebPPicture *pic) {
  out_chunks *o = (out_chunks *)pic->custom_ptr;
  while (size > 0) {
    size_t n = sizeof(o->buf) - (size_t)o->len;
    if (n > size) n = size;
    memcpy(o->buf + o->len, data, n);
    o->len += (int)n;
    data += n;
    size -= n;
    if (o->len == (int)sizeof(o->buf)) {
      js_emit(o->stream, o->buf, o->len);
      o->len = 0;
    }
  }
  return 1;
}

/*
 * Lossy encode of the picture at `quality` with libwebp's defaults (method 4, as the whole-image path;
 * alpha compressed losslessly with filtering). Output goes to the host stream. Returns 0 or a
 * WebPEncodingError. `exact` keeps the colour under fully transparent pixels. `colour_only`: the alpha
 * plane is left out of the output (a VP8-only file), after the colour under fully transparent areas was
 * flattened exactly as libwebp does when it encodes the alpha itself (unless `exact`): the VP8 data are
 * then the bytes libwebp would have written beside its ALPH chunk.
 */
EXPORT(wb_encode) int wb_encode(WebPPicture *pic, float quality, int method, int exact, int stream, int colour_only) {
  uint8_t *const a = pic->a;
  const WebPEncCSP csp = pic->colorspace;
  if (colour_only && a != NULL) {
    if (!exact) WebPCleanupTransparentArea(pic);
    pic->a = NULL;
    pic->colorspace = WEBP_YUV420;
  }
  WebPConfig config;
  if (!WebPConfigInit(&config)) return -1;
  config.quality = quality;
  config.method = method;
  config.exact = exact;
  if (!WebPValidateConfig(&config)) return -2;
  out_chunks *o = (out_chunks *)malloc(sizeof(out_chunks));
  if (o == NULL) return VP8_ENC_ERROR_OUT_OF_MEMORY;
  o->stream = stream;
  o->len = 0;
  pic->writer = write_chunks;
  pic->custom_ptr = o;
  const int ok = WebPEncode(&config, pic);
  if (ok && o->len > 0) js_emit(o->stream, o->buf, o->len);
  const int err = ok ? 0 : (pic->error_code ? pic->error_code : -3);
  free(o);
  pic->writer = NULL;
  pic->custom_ptr = NULL;
  pic->a = a;
  pic->colorspace = csp;
  return err;
}

static int put_rows(const VP8Io *io) {
  js_rows(*(const int *)io->opaque, io->y, io->y_stride, io->mb_y, io->mb_h);
  return 1;
}

/*
 * Decodes a VP8 bitstream (the payload of a "VP8 " chunk) band by band, handing each band's luma rows to
 * the host (js_rows); the decoder keeps a few macroblock rows only. Returns a VP8StatusCode (0 = OK).
 */
EXPORT(wb_decode_rows) int wb_decode_rows(const uint8_t *data, int size, int stream) {
  VP8Io io;
  if (!VP8InitIo(&io)) return -1;
  VP8Decoder *dec = VP8New();
  if (dec == NULL) return VP8_STATUS_OUT_OF_MEMORY;
  io.data = data;
  io.data_size = (size_t)size;
  io.opaque = &stream;
  io.put = put_rows;
  int st = VP8_STATUS_OK;
  if (!VP8GetHeaders(dec, &io) || !VP8Decode(dec, &io)) st = VP8Status(dec);
  if (st == VP8_STATUS_OK && VP8Status(dec) != VP8_STATUS_OK) st = VP8Status(dec);
  VP8Delete(dec);
  return st;
}
