/*
 * Streaming MozJPEG for the Worker: decode in strips of rows, encode from strips of rows, and lossless
 * transcode (jpegtran-class). No emscripten JS glue: the host (worker/images/mozjpeg.ts) instantiates
 * the standalone wasm with a handful of imports:
 *   env.js_fill(stream, buf, cap) -> bytes   the next chunk of an input (0 at the end)
 *   env.js_emit(stream, buf, len)            a chunk of an output
 *   env.js_error(msg)                        throws in the host (never returns): libjpeg's fatal error
 * Input and output bytes never sit whole in the wasm heap; only libjpeg's own buffers do (and the
 * whole-image coefficient arrays that progressive input or progressive/optimised output need).
 * After a js_error the instance's state is undefined: the host discards it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define JPEG_INTERNALS /* jpegint.h and jdct.h: the decoder's IDCT routines for the guard's luma */
#include "jpeglib.h"
#include "jerror.h"
#include "jdct.h"

#define IMPORT(n) __attribute__((import_module("env"), import_name(#n)))
#define EXPORT(n) __attribute__((export_name(#n)))

IMPORT(js_fill) extern int js_fill(int stream, unsigned char *buf, int cap);
IMPORT(js_emit) extern void js_emit(int stream, const unsigned char *buf, int len);
IMPORT(js_error) extern void js_error(const char *msg);

#define IO_CHUNK 65536

/* ---------- errors: fatal -> host exception; warnings counted (corrupt data, premature end) ---------- */

typedef struct {
  struct jpeg_error_mgr pub;
  int warnings;
} err_mgr;

static void on_error_exit(j_common_ptr cinfo) {
  char msg[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, msg);
  js_error(msg);
}

static void on_emit_message(j_common_ptr cinfo, int level) {
  if (level < 0) ((err_mgr *)cinfo->err)->warnings++;
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void init_err(err_mgr *e) {
  jpeg_std_error(&e->pub);
  e->pub.error_exit = on_error_exit;
  e->pub.emit_message = on_emit_message;
  e->pub.output_message = on_output_message;
  e->warnings = 0;
}

/* ---------- source: pulls chunks from the host ---------- */

typedef struct {
  struct jpeg_source_mgr pub;
  int stream;
  int eof; /* the data ended before libjpeg was done (truncated file) */
  JOCTET buf[IO_CHUNK];
} src_mgr;

static void src_init(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean src_fill(j_decompress_ptr cinfo) {
  src_mgr *s = (src_mgr *)cinfo->src;
  int n = js_fill(s->stream, s->buf, IO_CHUNK);
  if (n <= 0) {
    /* Same as libjpeg's stdio source: warn and insert a fake EOI. */
    s->eof = 1;
    WARNMS(cinfo, JWRN_JPEG_EOF);
    s->buf[0] = (JOCTET)0xFF;
    s->buf[1] = (JOCTET)JPEG_EOI;
    n = 2;
  }
  s->pub.next_input_byte = s->buf;
  s->pub.bytes_in_buffer = (size_t)n;
  return TRUE;
}

static void src_skip(j_decompress_ptr cinfo, long num_bytes) {
  struct jpeg_source_mgr *src = cinfo->src;
  if (num_bytes <= 0) return;
  while (num_bytes > (long)src->bytes_in_buffer) {
    num_bytes -= (long)src->bytes_in_buffer;
    (void)(*src->fill_input_buffer)(cinfo);
  }
  src->next_input_byte += (size_t)num_bytes;
  src->bytes_in_buffer -= (size_t)num_bytes;
}

static void src_term(j_decompress_ptr cinfo) { (void)cinfo; }

static void use_source(j_decompress_ptr cinfo, src_mgr *s, int stream) {
  s->stream = stream;
  s->eof = 0;
  s->pub.init_source = src_init;
  s->pub.fill_input_buffer = src_fill;
  s->pub.skip_input_data = src_skip;
  s->pub.resync_to_restart = jpeg_resync_to_restart;
  s->pub.term_source = src_term;
  s->pub.bytes_in_buffer = 0;
  s->pub.next_input_byte = NULL;
  cinfo->src = &s->pub;
}

/* ---------- destination: hands chunks to the host ---------- */

typedef struct {
  struct jpeg_destination_mgr pub;
  int stream;
  JOCTET buf[IO_CHUNK];
} dst_mgr;

static void dst_init(j_compress_ptr cinfo) {
  dst_mgr *d = (dst_mgr *)cinfo->dest;
  d->pub.next_output_byte = d->buf;
  d->pub.free_in_buffer = IO_CHUNK;
}

static boolean dst_empty(j_compress_ptr cinfo) {
  dst_mgr *d = (dst_mgr *)cinfo->dest;
  js_emit(d->stream, d->buf, IO_CHUNK);
  d->pub.next_output_byte = d->buf;
  d->pub.free_in_buffer = IO_CHUNK;
  return TRUE;
}

static void dst_term(j_compress_ptr cinfo) {
  dst_mgr *d = (dst_mgr *)cinfo->dest;
  int n = IO_CHUNK - (int)d->pub.free_in_buffer;
  if (n > 0) js_emit(d->stream, d->buf, n);
}

static void use_dest(j_compress_ptr cinfo, dst_mgr *d, int stream) {
  d->stream = stream;
  d->pub.init_destination = dst_init;
  d->pub.empty_output_buffer = dst_empty;
  d->pub.term_destination = dst_term;
  cinfo->dest = &d->pub;
}

/* ---------- decoder ---------- */

enum {
  INFO_WIDTH, INFO_HEIGHT, INFO_COMPONENTS, INFO_COLOR_SPACE, INFO_PROGRESSIVE, INFO_ADOBE,
  INFO_ADOBE_TRANSFORM, INFO_MAX_H, INFO_MAX_V, INFO_COEF_BYTES, INFO_WARNINGS, INFO_TRUNCATED,
  INFO_OUT_WIDTH, INFO_OUT_HEIGHT, INFO_OUT_CHANNELS, INFO_LEN
};

typedef struct {
  struct jpeg_decompress_struct d;
  err_mgr err;
  src_mgr src;
  int cmyk;
  int strip;           /* rows per read */
  JSAMPLE *rows;       /* strip x width x 3 (RGB out) */
  JSAMPLE *cmyk_rows;  /* strip x width x 4 when the file is CMYK/YCCK */
  JSAMPROW *ptrs;
  int info[INFO_LEN];
} dec_t;

/* Bytes of the whole-image DCT coefficient arrays (2 bytes per coefficient), padded to iMCUs. */
static int coef_bytes(int width, int height, int ncomp, jpeg_component_info *comp, int max_h, int max_v) {
  double total = 0;
  int mcu_w = 8 * max_h, mcu_h = 8 * max_v;
  int mcus_x = (width + mcu_w - 1) / mcu_w, mcus_y = (height + mcu_h - 1) / mcu_h;
  for (int c = 0; c < ncomp; c++)
    total += (double)mcus_x * comp[c].h_samp_factor * mcus_y * comp[c].v_samp_factor * 64 * 2;
  return total > 2e9 ? 2000000000 : (int)total;
}

EXPORT(dec_open) dec_t *dec_open(int stream) {
  dec_t *h = (dec_t *)calloc(1, sizeof(dec_t));
  if (!h) return NULL;
  init_err(&h->err);
  h->d.err = &h->err.pub;
  jpeg_create_decompress(&h->d);
  use_source(&h->d, &h->src, stream);
  return h;
}

/* Reads the header; returns the info array (see INFO_*). */
EXPORT(dec_header) int *dec_header(dec_t *h) {
  jpeg_read_header(&h->d, TRUE);
  struct jpeg_decompress_struct *d = &h->d;
  h->info[INFO_WIDTH] = (int)d->image_width;
  h->info[INFO_HEIGHT] = (int)d->image_height;
  h->info[INFO_COMPONENTS] = d->num_components;
  h->info[INFO_COLOR_SPACE] = d->jpeg_color_space;
  h->info[INFO_PROGRESSIVE] = d->progressive_mode ? 1 : 0;
  h->info[INFO_ADOBE] = d->saw_Adobe_marker ? 1 : 0;
  h->info[INFO_ADOBE_TRANSFORM] = d->Adobe_transform;
  h->info[INFO_MAX_H] = d->max_h_samp_factor;
  h->info[INFO_MAX_V] = d->max_v_samp_factor;
  h->info[INFO_COEF_BYTES] = coef_bytes((int)d->image_width, (int)d->image_height, d->num_components, d->comp_info, d->max_h_samp_factor, d->max_v_samp_factor);
  return h->info;
}

/*
 * Starts decompression to RGB (CMYK/YCCK converted here), scaled by scale_num/scale_denom (libjpeg's DCT
 * scaling: an IDCT of the low-frequency coefficients, e.g. 1/2 or 3/8; for large watermark logos and the
 * guard's display-scale decode). Returns the strip buffer's row capacity; the output size is in the info
 * array (INFO_OUT_WIDTH/HEIGHT).
 * luma: for a YCbCr or grey file, one channel per pixel, the Y plane itself (what the guard compares: the
 * luma 0.299 R + 0.587 G + 0.114 B of the decoded RGB is Y before RGB's rounding and clamping); libjpeg then
 * skips the chroma planes' IDCT, upsampling and colour conversion. Other files stay RGB (INFO_OUT_CHANNELS).
 */
EXPORT(dec_start) int dec_start(dec_t *h, int strip, int scale_num, int scale_denom, int luma) {
  struct jpeg_decompress_struct *d = &h->d;
  d->scale_num = (unsigned int)(scale_num > 0 ? scale_num : 1);
  d->scale_denom = (unsigned int)(scale_denom > 0 ? scale_denom : 1);
  h->cmyk = d->jpeg_color_space == JCS_CMYK || d->jpeg_color_space == JCS_YCCK;
  int grey = luma == 1 && (d->jpeg_color_space == JCS_YCbCr || d->jpeg_color_space == JCS_GRAYSCALE);
  int ycc = luma == 2 && d->jpeg_color_space == JCS_YCbCr;
  d->out_color_space = h->cmyk ? JCS_CMYK : grey ? JCS_GRAYSCALE : ycc ? JCS_YCbCr : JCS_RGB;
  d->dct_method = JDCT_ISLOW;
  jpeg_start_decompress(d);
  h->info[INFO_OUT_WIDTH] = (int)d->output_width;
  h->info[INFO_OUT_HEIGHT] = (int)d->output_height;
  h->info[INFO_OUT_CHANNELS] = grey ? 1 : 3;
  if (strip < (int)d->rec_outbuf_height) strip = d->rec_outbuf_height;
  h->strip = strip;
  size_t w = d->output_width;
  h->rows = (JSAMPLE *)malloc(w * 3 * (size_t)strip);
  h->ptrs = (JSAMPROW *)malloc(sizeof(JSAMPROW) * (size_t)strip);
  if (h->cmyk) h->cmyk_rows = (JSAMPLE *)malloc(w * 4 * (size_t)strip);
  if (!h->rows || !h->ptrs || (h->cmyk && !h->cmyk_rows)) js_error("out of memory for the row strip");
  JSAMPLE *base = h->cmyk ? h->cmyk_rows : h->rows;
  int stride = (int)w * (h->cmyk ? 4 : grey ? 1 : 3);
  for (int i = 0; i < strip; i++) h->ptrs[i] = base + (size_t)i * stride;
  return strip;
}

EXPORT(dec_rows) JSAMPLE *dec_rows(dec_t *h) { return h->rows; }

static void luma_plane(j_common_ptr cinfo, jvirt_barray_ptr arr, jpeg_component_info *y, JQUANT_TBL *q, int s,
                       JSAMPLE *out, int out_w, int out_h);

/*
 * A progressive YCbCr original decoded from its coefficients held in the heap (libjpeg's buffered-image
 * mode; issue 24, CPU), instead of through a baseline stand-in written and parsed again: every scan is
 * parsed once here, then each output pass (dec_output_begin .. dec_read .. dec_output_end, once per
 * encode) runs the IDCT from the arrays at full size; ycc: rows stay YCbCr. dec_luma gives the Y plane at
 * the guard's DCT scale from the same arrays. The pixels are those of decoding the file (or its stand-in:
 * the same coefficients): a complete progressive file gets no block smoothing. Returns the strip's row
 * capacity, or 0 when the file is not a progressive YCbCr one whose Y has the largest sampling factors.
 */
EXPORT(dec_start_buffered) int dec_start_buffered(dec_t *h, int strip, int ycc) {
  struct jpeg_decompress_struct *d = &h->d;
  if (!d->progressive_mode || d->jpeg_color_space != JCS_YCbCr || d->num_components != 3 ||
      d->comp_info[0].h_samp_factor != d->max_h_samp_factor || d->comp_info[0].v_samp_factor != d->max_v_samp_factor)
    return 0;
  d->buffered_image = TRUE;
  d->out_color_space = ycc ? JCS_YCbCr : JCS_RGB;
  d->dct_method = JDCT_ISLOW;
  jpeg_start_decompress(d);
  while (jpeg_consume_input(d) != JPEG_REACHED_EOI) {
  }
  h->info[INFO_WARNINGS] = h->err.warnings;
  h->info[INFO_TRUNCATED] = h->src.eof;
  h->info[INFO_OUT_WIDTH] = (int)d->output_width;
  h->info[INFO_OUT_HEIGHT] = (int)d->output_height;
  h->info[INFO_OUT_CHANNELS] = 3;
  if (strip < (int)d->rec_outbuf_height) strip = d->rec_outbuf_height;
  h->strip = strip;
  size_t w = d->output_width;
  h->rows = (JSAMPLE *)malloc(w * 3 * (size_t)strip);
  h->ptrs = (JSAMPROW *)malloc(sizeof(JSAMPROW) * (size_t)strip);
  if (!h->rows || !h->ptrs) js_error("out of memory for the row strip");
  for (int i = 0; i < strip; i++) h->ptrs[i] = h->rows + (size_t)i * w * 3;
  return strip;
}

EXPORT(dec_output_begin) void dec_output_begin(dec_t *h) { jpeg_start_output(&h->d, h->d.input_scan_number); }
EXPORT(dec_output_end) void dec_output_end(dec_t *h) {
  if (h->d.output_scanline >= h->d.output_height) jpeg_finish_output(&h->d);
}

/* The Y plane at DCT scale scale/8 (ceil(dimension * scale / 8)) from a buffered decoder's arrays; freed by the caller (mem_free). */
EXPORT(dec_luma) JSAMPLE *dec_luma(dec_t *h, int scale) {
  struct jpeg_decompress_struct *d = &h->d;
  if (scale < 1 || scale > 8 || !d->coef || !d->coef->coef_arrays) return NULL;
  int w = (int)(((long)d->image_width * scale + 7) / 8), hh = (int)(((long)d->image_height * scale + 7) / 8);
  JSAMPLE *out = (JSAMPLE *)malloc((size_t)w * (size_t)hh);
  if (!out) return NULL;
  luma_plane((j_common_ptr)d, d->coef->coef_arrays[0], &d->comp_info[0], d->comp_info[0].quant_table, scale, out, w, hh);
  return out;
}

/*
 * Adobe (Photoshop) CMYK JPEGs store inverted values: the raw sample is 255 - ink. Without an Adobe
 * marker the samples are ink amounts. Naive (uncalibrated) CMYK -> RGB: R = (1 - C)(1 - K).
 */
static void cmyk_to_rgb(const JSAMPLE *in, JSAMPLE *out, size_t pixels, int inverted) {
  for (size_t i = 0; i < pixels; i++, in += 4, out += 3) {
    int c = in[0], m = in[1], y = in[2], k = in[3];
    if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
    out[0] = (JSAMPLE)((c * k + 127) / 255);
    out[1] = (JSAMPLE)((m * k + 127) / 255);
    out[2] = (JSAMPLE)((y * k + 127) / 255);
  }
}

/* Decodes up to `max` rows (<= strip) into dec_rows(); returns the number of rows (0 at the end). */
EXPORT(dec_read) int dec_read(dec_t *h, int max) {
  struct jpeg_decompress_struct *d = &h->d;
  if (max > h->strip) max = h->strip;
  int got = 0;
  while (got < max && d->output_scanline < d->output_height) {
    got += (int)jpeg_read_scanlines(d, h->ptrs + got, (JDIMENSION)(max - got));
  }
  if (h->cmyk && got > 0) cmyk_to_rgb(h->cmyk_rows, h->rows, (size_t)got * d->output_width, h->d.saw_Adobe_marker);
  return got;
}

/* Finishes (reads to EOI) and returns the info array with warning and truncation counts filled in. */
EXPORT(dec_finish) int *dec_finish(dec_t *h) {
  if (h->d.output_scanline >= h->d.output_height) jpeg_finish_decompress(&h->d);
  h->info[INFO_WARNINGS] = h->err.warnings;
  h->info[INFO_TRUNCATED] = h->src.eof;
  return h->info;
}

EXPORT(dec_close) void dec_close(dec_t *h) {
  if (!h) return;
  jpeg_destroy_decompress(&h->d);
  free(h->rows);
  free(h->cmyk_rows);
  free(h->ptrs);
  free(h);
}

/* ---------- encoder: RGB rows in, MozJPEG defaults (progressive, optimised scans, trellis, 4:2:0) ---------- */

typedef struct {
  struct jpeg_compress_struct c; /* first: the progress monitor casts the cinfo back to enc_t */
  err_mgr err;
  dst_mgr dst;
  int strip;
  JSAMPLE *rows;
  JSAMPROW *ptrs;
  /* the guard's luma (enc_luma): the Y plane at scale luma_scale/8, computed in the last pass */
  jvirt_barray_ptr *coefs;
  struct jpeg_progress_mgr progress;
  int luma_scale, luma_w, luma_h, luma_done;
  JSAMPLE *luma;
} enc_t;

/* Memory savers for images whose full-strength encoder does not fit (flags, both set = MozJPEG defaults):
 * ENC_TRELLIS off: no trellis quantisation, so one coefficient array (3 B/px at 4:2:0) instead of two
 *   (see the patch in build.mjs); ENC_OPTIMIZE_SCANS off: the standard progressive script instead of
 *   trial-encoding every candidate scan into memory (those buffers add several times the output size). */
#define ENC_TRELLIS 1
#define ENC_OPTIMIZE_SCANS 2
/* ENC_ROW_TRELLIS (with ENC_TRELLIS off): trellis per block row in the first pass (patch in build.mjs):
 * one coefficient array like no trellis, within 0.1-0.3 % of trellis's output size. */
#define ENC_ROW_TRELLIS 4
/* Chroma sampling other than MozJPEG's 4:2:0 (tests and the bench make 4:4:4 / 4:2:2 originals with it). */
#define ENC_SAMPLING_444 8
#define ENC_SAMPLING_422 16
/* Rows are YCbCr (a YCbCr original decoded without colour conversion, dec_start luma 2), not RGB. */
#define ENC_YCC_INPUT 32
extern int mozjpeg_row_trellis;
extern jvirt_barray_ptr *mozjpeg_coef_arrays;
extern int mozjpeg_luma_one_step;
EXPORT(enc_open) enc_t *enc_open(int stream, int width, int height, int quality, int grey, int strip, int flags) {
  enc_t *h = (enc_t *)calloc(1, sizeof(enc_t));
  if (!h) return NULL;
  init_err(&h->err);
  h->c.err = &h->err.pub;
  jpeg_create_compress(&h->c);
  use_dest(&h->c, &h->dst, stream);
  struct jpeg_compress_struct *c = &h->c;
  c->image_width = (JDIMENSION)width;
  c->image_height = (JDIMENSION)height;
  c->input_components = 3;
  c->in_color_space = (flags & ENC_YCC_INPUT) ? JCS_YCbCr : JCS_RGB;
  jpeg_set_defaults(c); /* MozJPEG's JCP_MAX_COMPRESSION profile: what cjpeg does by default */
  if (grey) jpeg_set_colorspace(c, JCS_GRAYSCALE);
  if (!grey && (flags & (ENC_SAMPLING_444 | ENC_SAMPLING_422))) {
    c->comp_info[0].h_samp_factor = (flags & ENC_SAMPLING_422) ? 2 : 1;
    c->comp_info[0].v_samp_factor = 1;
  }
  if (!(flags & ENC_TRELLIS)) {
    jpeg_c_set_bool_param(c, JBOOLEAN_TRELLIS_QUANT, FALSE);
    jpeg_c_set_bool_param(c, JBOOLEAN_TRELLIS_QUANT_DC, FALSE);
  }
  if (!(flags & ENC_OPTIMIZE_SCANS)) jpeg_c_set_bool_param(c, JBOOLEAN_OPTIMIZE_SCANS, FALSE);
  if (flags & ENC_ROW_TRELLIS) jpeg_c_set_bool_param(c, JBOOLEAN_TRELLIS_QUANT_DC, TRUE);
  jpeg_set_quality(c, quality, FALSE);
  /* the scan script must match the component count; luma AC in one successive-approximation step (build.mjs) */
  mozjpeg_luma_one_step = 1;
  jpeg_simple_progression(c);
  mozjpeg_luma_one_step = 0;
  mozjpeg_row_trellis = (flags & ENC_ROW_TRELLIS) && !(flags & ENC_TRELLIS);
  jpeg_start_compress(c, TRUE); /* the coefficient controller reads mozjpeg_row_trellis here */
  mozjpeg_row_trellis = 0;
  h->coefs = mozjpeg_coef_arrays; /* set by that controller (patch in build.mjs) */
  mozjpeg_coef_arrays = NULL;
  h->strip = strip;
  h->rows = (JSAMPLE *)malloc((size_t)width * 3 * (size_t)strip);
  h->ptrs = (JSAMPROW *)malloc(sizeof(JSAMPROW) * (size_t)strip);
  if (!h->rows || !h->ptrs) js_error("out of memory for the row strip");
  for (int i = 0; i < strip; i++) h->ptrs[i] = h->rows + (size_t)i * width * 3;
  return h;
}

EXPORT(enc_rows) JSAMPLE *enc_rows(enc_t *h) { return h->rows; }

EXPORT(enc_write) int enc_write(enc_t *h, int n) {
  if (n > h->strip) n = h->strip;
  int done = 0;
  while (done < n) done += (int)jpeg_write_scanlines(&h->c, h->ptrs + done, (JDIMENSION)(n - done));
  return done;
}

/*
 * The guard's look at the candidate without decoding it: the Y plane a decoder would output at DCT scale
 * scale/8 with luma (grey) output, computed from the encoder's final quantised coefficients during its last
 * output pass, with the decoder's own IDCT routine for that scale, its dequantisation table (the
 * quantisation table, natural order) and its range-limit table (jdmaster.c prepare_range_limit_table).
 * The coefficients are what the file holds (every scan codes them exactly; block smoothing does not apply
 * to a complete progressive file), so the pixels are those of decoding the written file
 * (tests/worker/images/jpeg-guard-luma.test.ts compares them). Y has the largest sampling factors, so its
 * scaled block size is scale itself and it needs no upsampling; a grey decode of YCbCr copies Y.
 */
static void luma_plane(j_common_ptr cinfo, jvirt_barray_ptr arr, jpeg_component_info *y, JQUANT_TBL *q, int s,
                       JSAMPLE *out, int out_w, int out_h) {
  jpeg_component_info comp = *y;
  ISLOW_MULT_TYPE mult[DCTSIZE2];
  for (int i = 0; i < DCTSIZE2; i++) mult[i] = (ISLOW_MULT_TYPE)q->quantval[i];
  comp.dct_table = mult;
  JSAMPLE range[5 * (MAXJSAMPLE + 1) + CENTERJSAMPLE];
  JSAMPLE *table = range + (MAXJSAMPLE + 1);
  memset(range, 0, (MAXJSAMPLE + 1) * sizeof(JSAMPLE));
  for (int i = 0; i <= MAXJSAMPLE; i++) table[i] = (JSAMPLE)i;
  JSAMPLE *post = table + CENTERJSAMPLE;
  for (int i = CENTERJSAMPLE; i < 2 * (MAXJSAMPLE + 1); i++) post[i] = MAXJSAMPLE;
  memset(post + 2 * (MAXJSAMPLE + 1), 0, (2 * (MAXJSAMPLE + 1) - CENTERJSAMPLE) * sizeof(JSAMPLE));
  memcpy(post + 4 * (MAXJSAMPLE + 1) - CENTERJSAMPLE, table, CENTERJSAMPLE * sizeof(JSAMPLE));
  struct jpeg_decompress_struct d;
  memset(&d, 0, sizeof(d));
  d.sample_range_limit = table;
  inverse_DCT_method_ptr idct = s == 1 ? jpeg_idct_1x1 : s == 2 ? jpeg_idct_2x2 : s == 3 ? jpeg_idct_3x3
    : s == 4 ? jpeg_idct_4x4 : s == 5 ? jpeg_idct_5x5 : s == 6 ? jpeg_idct_6x6 : s == 7 ? jpeg_idct_7x7 : jpeg_idct_islow;
  JDIMENSION bw = comp.width_in_blocks;
  JSAMPLE *scratch = (JSAMPLE *)malloc((size_t)bw * s * s);
  if (!scratch) js_error("out of memory for the guard's luma");
  JSAMPROW rows[DCTSIZE];
  for (int r = 0; r < s; r++) rows[r] = scratch + (size_t)r * bw * s;
  for (JDIMENSION by = 0; by < comp.height_in_blocks; by++) {
    JBLOCKARRAY b = (*cinfo->mem->access_virt_barray)(cinfo, arr, by, 1, FALSE);
    for (JDIMENSION bx = 0; bx < bw; bx++) idct(&d, &comp, b[0][bx], rows, bx * s);
    for (int r = 0; r < s; r++) {
      int yy = (int)by * s + r;
      if (yy >= out_h) break;
      memcpy(out + (size_t)yy * out_w, rows[r], (size_t)out_w);
    }
  }
  free(scratch);
}

static void luma_from_coefficients(enc_t *h) {
  j_compress_ptr c = &h->c;
  luma_plane((j_common_ptr)c, h->coefs[0], &c->comp_info[0], c->quant_tbl_ptrs[c->comp_info[0].quant_tbl_no],
             h->luma_scale, h->luma, h->luma_w, h->luma_h);
}

static void enc_progress(j_common_ptr cinfo) {
  enc_t *h = (enc_t *)cinfo;
  j_compress_ptr c = &h->c;
  if (h->luma && !h->luma_done && c->master->is_last_pass && c->progress->pass_counter == 0) {
    luma_from_coefficients(h);
    h->luma_done = 1;
  }
}

/*
 * Asks for the guard's luma at scale/8 (enc_luma after enc_finish): allocates the plane (the decoder's
 * output size, ceil(dimension * scale / 8)); 0 when this encoder has no whole-image coefficients.
 */
EXPORT(enc_want_luma) int enc_want_luma(enc_t *h, int scale) {
  if (!h->coefs || scale < 1 || scale > 8) return 0;
  h->luma_scale = scale;
  h->luma_w = (int)(((long)h->c.image_width * scale + 7) / 8);
  h->luma_h = (int)(((long)h->c.image_height * scale + 7) / 8);
  h->luma = (JSAMPLE *)malloc((size_t)h->luma_w * (size_t)h->luma_h);
  if (!h->luma) return 0;
  h->progress.progress_monitor = enc_progress;
  h->c.progress = &h->progress;
  return 1;
}

/* The guard's luma plane (luma_w x luma_h), or NULL when it was not computed. */
EXPORT(enc_luma) JSAMPLE *enc_luma(enc_t *h) { return h->luma_done ? h->luma : NULL; }

/* Writes the whole file (progressive output is entropy-coded here) through js_emit, then frees. */
EXPORT(enc_finish) void enc_finish(enc_t *h) {
  jpeg_finish_compress(&h->c);
}

EXPORT(enc_close) void enc_close(enc_t *h) {
  if (!h) return;
  jpeg_destroy_compress(&h->c);
  free(h->luma);
  free(h->rows);
  free(h->ptrs);
  free(h);
}

/* ---------- lossless transcode: coefficients in, optimised progressive out ---------- */

/*
 * jpegtran -copy none -optimize -progressive (MozJPEG's optimised scans): the DCT coefficients are
 * copied unchanged, so the pixels are identical by construction. The input's coefficient arrays are
 * the only whole-image buffer (jpeg_write_coefficients encodes from them). No markers are copied: the
 * host re-attaches orientation and the ICC profile. Returns the number of warnings in the input.
 */
/*
 * progressive = 0 writes baseline with standard Huffman tables instead: a fast, pixel-identical
 * stand-in for a progressive original, so the lossy path can then decode it strip by strip without
 * holding the input's coefficients next to the encoder's.
 */
EXPORT(transcode) int transcode(int in_stream, int out_stream, int progressive) {
  struct jpeg_decompress_struct d;
  struct jpeg_compress_struct c;
  err_mgr derr, cerr;
  src_mgr *src = (src_mgr *)malloc(sizeof(src_mgr));
  dst_mgr *dst = (dst_mgr *)malloc(sizeof(dst_mgr));
  if (!src || !dst) js_error("out of memory");
  init_err(&derr);
  init_err(&cerr);
  d.err = &derr.pub;
  c.err = &cerr.pub;
  jpeg_create_decompress(&d);
  jpeg_create_compress(&c);
  use_source(&d, src, in_stream);
  jpeg_read_header(&d, TRUE);
  jvirt_barray_ptr *coefs = jpeg_read_coefficients(&d);
  jpeg_copy_critical_parameters(&d, &c);
  if (progressive) {
    c.optimize_coding = TRUE;
    /* progressive == 2: the standard script instead of trial-encoding candidate scans in memory */
    if (progressive == 2) jpeg_c_set_bool_param(&c, JBOOLEAN_OPTIMIZE_SCANS, FALSE);
    jpeg_simple_progression(&c);
  } else {
    c.optimize_coding = FALSE;
    c.num_scans = 0;
    c.scan_info = NULL;
    jpeg_c_set_bool_param(&c, JBOOLEAN_OPTIMIZE_SCANS, FALSE);
  }
  use_dest(&c, dst, out_stream);
  jpeg_write_coefficients(&c, coefs);
  jpeg_finish_compress(&c);
  jpeg_finish_decompress(&d);
  int warnings = derr.warnings + (src->eof ? 1000 : 0);
  jpeg_destroy_compress(&c);
  jpeg_destroy_decompress(&d);
  free(src);
  free(dst);
  return warnings;
}

/*
 * One tile of a progressive original too large to hold whole: the coefficients of iMCU rows
 * [first, first + rows) (the band patch in build.mjs keeps only those, plus a nonzero mask per block),
 * written unchanged as a baseline JPEG of that band's height with optimised Huffman tables. Decoding the
 * tiles one after another gives the original's pixels (the caller overlaps tiles by one iMCU row where
 * chroma is upsampled vertically, and drops the overlap). Returns warnings (+1000 when truncated).
 */
extern int mozjpeg_band_first, mozjpeg_band_rows;
EXPORT(transcode_tile) int transcode_tile(int in_stream, int out_stream, int first, int rows) {
  struct jpeg_decompress_struct d;
  struct jpeg_compress_struct c;
  err_mgr derr, cerr;
  src_mgr *src = (src_mgr *)malloc(sizeof(src_mgr));
  dst_mgr *dst = (dst_mgr *)malloc(sizeof(dst_mgr));
  if (!src || !dst) js_error("out of memory");
  init_err(&derr);
  init_err(&cerr);
  d.err = &derr.pub;
  c.err = &cerr.pub;
  jpeg_create_decompress(&d);
  jpeg_create_compress(&c);
  use_source(&d, src, in_stream);
  jpeg_read_header(&d, TRUE);
  mozjpeg_band_first = first;
  mozjpeg_band_rows = rows;
  jvirt_barray_ptr *coefs = jpeg_read_coefficients(&d);
  mozjpeg_band_first = -1;
  mozjpeg_band_rows = 0;
  jpeg_copy_critical_parameters(&d, &c);
  int imcu_h = 8 * d.max_v_samp_factor;
  int left = (int)d.image_height - first * imcu_h;
  c.image_height = (JDIMENSION)(rows * imcu_h < left ? rows * imcu_h : left);
  c.optimize_coding = TRUE;
  c.num_scans = 0;
  c.scan_info = NULL;
  jpeg_c_set_bool_param(&c, JBOOLEAN_OPTIMIZE_SCANS, FALSE);
  use_dest(&c, dst, out_stream);
  jpeg_write_coefficients(&c, coefs);
  jpeg_finish_compress(&c);
  jpeg_finish_decompress(&d);
  int warnings = derr.warnings + (src->eof ? 1000 : 0);
  jpeg_destroy_compress(&c);
  jpeg_destroy_decompress(&d);
  free(src);
  free(dst);
  return warnings;
}

/* ---------- memory for the host ---------- */

EXPORT(mem_alloc) void *mem_alloc(int n) { return malloc((size_t)n); }
EXPORT(mem_free) void mem_free(void *p) { free(p); }
