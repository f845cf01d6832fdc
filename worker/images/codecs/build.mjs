#!/usr/bin/env node
// npm run build:codecs [-- --check]
// Builds worker/images/codecs/mozjpeg.wasm from pinned sources: MozJPEG 3.2 from the npm package
// `mozjpeg@8.0.0` (fetched with `npm pack`, which runs no install script: the package's postinstall
// compiles native binaries and needs GitHub; the source tarball's sha256 is checked) + mozjpeg-glue.c, with
// Debian's emscripten 3.1.6 as a standalone wasm (no JS glue). Writes the wasm and its sha256 to
// mozjpeg.wasm.sha256; with --check it rebuilds in a temporary folder and fails when the committed
// wasm or hash differs (the test tests/worker/images/mozjpeg-wasm.test.ts checks the hash without a
// compiler). Deterministic: fixed flags, configure-free headers (jconfig*.h, fixed BUILD date), no
// debug info, the source folder mapped away, SOURCE_DATE_EPOCH pinned.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emccEnv, fail, recordOrCheck, sha256 } from './record.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const check = process.argv.includes('--check');

const PACKAGE = 'mozjpeg@8.0.0';
const TARBALL_SHA256 = '8aecc1ecad447a73ae01b9a546e99142345e5a92838d84af425f2b19202e7b73'; // mozjpeg@8.0.0 (MozJPEG 3.2)
const EMCC_VERSION = '3.1.6';

// libjpeg_la_SOURCES of MozJPEG's Makefile.am (no SIMD, arithmetic decoding only).
const SOURCES = `jcapimin jcapistd jccoefct jccolor jcdctmgr jcext jchuff jcinit jcmainct jcmarker jcmaster jcomapi
  jcparam jcphuff jcprepct jcsample jctrans jdapimin jdapistd jdatadst jdatasrc jdcoefct jdcolor jddctmgr jdhuff
  jdinput jdmainct jdmarker jdmaster jdmerge jdphuff jdpostct jdsample jdtrans jerror jfdctflt jfdctfst jfdctint
  jidctflt jidctfst jidctint jidctred jquant1 jquant2 jutils jmemmgr jmemnobs jsimd_none jaricom jdarith`
  .split(/\s+/)
  .map((s) => `${s}.c`);

// -msimd128: clang's autovectoriser on libjpeg's C loops (no hand-written SIMD: jsimd_none). Same output
// bytes; measured in V8 on 9-16 MP photos: encode with trellis -10 %, row trellis -16 %, decode unchanged.
const FLAGS = [
  '-O3',
  '-msimd128',
  '-sSTANDALONE_WASM',
  '--no-entry',
  '-sALLOW_MEMORY_GROWTH=1',
  '-sINITIAL_MEMORY=1MB',
  '-sTOTAL_STACK=256KB',
  '-sERROR_ON_UNDEFINED_SYMBOLS=0',
  '-sFILESYSTEM=0',
  '-g0',
];

/**
 * The one change to MozJPEG: its coefficient controller keeps a second whole-image array of
 * UNquantised coefficients (for trellis quantisation) even when trellis is off. Allocated only with
 * trellis, an encoder without trellis needs 3 B/px instead of 6 at 4:2:0 (how a 25 MP image fits).
 * Output with trellis on is unchanged.
 */
const PATCHES = [
  // MozJPEG 3.2's jpeg_simple_progression (used without the scan search: lossy output and lossless
  // transcodes above 2 MP) counts one scan too few for YCbCr: the last one, Cr's AC 9-63, is dropped
  // (and written past the script array). Without it Cr loses every AC coefficient above 8: measured Cr
  // PSNR 47.8 vs 53.3 dB against native MozJPEG at the same tables, and "lossless" transcodes above
  // 2 MP were not pixel-identical. The counts of the script below are 9 / 11 / 10 scans.
  // Lossy outputs (issue 24, CPU): luma AC in one successive-approximation step (Al 1, one refinement
  // 1->0) instead of two (Al 2, refinements 2->1 and 1->0), set by mozjpeg-glue.c's encoder around its
  // jpeg_simple_progression (mozjpeg_luma_one_step): the same coefficients in one scan fewer, measured on
  // the store set's tune half (9 JPEGs of 6-16 MP, Medium) 0.3-1.0 % fewer bytes on every one and 4-9 %
  // less encode CPU. Lossless transcodes keep two steps: of an original's own coefficients (q85-95) one
  // step made 8 of 11 photos 0.1-3.0 % larger.
  [
    'jcparam.c',
    `      nscans = 8;  /* 1 DC scan for all components */`,
    `      nscans = 9 - mozjpeg_luma_one_step;  /* 1 DC scan for all components */`,
  ],
  [
    'jcparam.c',
    `      nscans = 10; /* 1 DC scan for each component */`,
    `      nscans = 11 - mozjpeg_luma_one_step; /* 1 DC scan for each component */`,
  ],
  [
    'jcparam.c',
    `      nscans = 9;  /* 1 DC scan for luminance and 1 DC scan for chroma */`,
    `      nscans = 10 - mozjpeg_luma_one_step; /* 1 DC scan for luminance and 1 DC scan for chroma */`,
  ],
  [
    'jcparam.c',
    `#include "jpeglib.h"`,
    `#include "jpeglib.h"
int mozjpeg_luma_one_step = 0; /* set by mozjpeg-glue.c's encoder around jpeg_simple_progression */`,
  ],
  [
    'jcparam.c',
    `      scanptr = fill_a_scan(scanptr, 0, 1, 8, 0, 2);
      scanptr = fill_a_scan(scanptr, 1, 1, 8, 0, 0);`,
    `      scanptr = fill_a_scan(scanptr, 0, 1, 8, 0, mozjpeg_luma_one_step ? 1 : 2);
      scanptr = fill_a_scan(scanptr, 1, 1, 8, 0, 0);`,
  ],
  [
    'jcparam.c',
    `      scanptr = fill_a_scan(scanptr, 0, 9, 63, 0, 2);
      /* Finish luma AC successive approximation */
      scanptr = fill_a_scan(scanptr, 0, 1, 63, 2, 1);
      scanptr = fill_a_scan(scanptr, 0, 1, 63, 1, 0);`,
    `      scanptr = fill_a_scan(scanptr, 0, 9, 63, 0, mozjpeg_luma_one_step ? 1 : 2);
      /* Finish luma AC successive approximation */
      if (!mozjpeg_luma_one_step) scanptr = fill_a_scan(scanptr, 0, 1, 63, 2, 1);
      scanptr = fill_a_scan(scanptr, 0, 1, 63, 1, 0);`,
  ],
  // Row trellis (large images): trellis-quantise each block row right after its DCT in the first pass,
  // from a scratch of v_samp_factor rows of unquantised coefficients instead of a whole-image array (one
  // coefficient array in all: 3 B/px at 4:2:0 instead of 6). Multi-pass trellis (trellis_quant) is off
  // then, so the rate model uses the standard Huffman tables; measured within 0.1-0.3 % of it in size.
  [
    'jccoefct.c',
    `  jvirt_barray_ptr whole_image_uq[MAX_COMPONENTS];`,
    `  jvirt_barray_ptr whole_image_uq[MAX_COMPONENTS];
  JBLOCKARRAY uq_rows[MAX_COMPONENTS]; /* row trellis scratch */`,
  ],
  [
    'jccoefct.c',
    `#include "jchuff.h"`,
    `#include "jchuff.h"
int mozjpeg_row_trellis = 0; /* set by mozjpeg-glue.c around jpeg_start_compress */`,
  ],
  [
    'jccoefct.c',
    `      coef->whole_image_uq[ci] = (*cinfo->mem->request_virt_barray)`,
    `      coef->whole_image_uq[ci] = NULL; /* alloc_small does not zero */
      coef->uq_rows[ci] = mozjpeg_row_trellis ? (*cinfo->mem->alloc_barray)((j_common_ptr) cinfo, JPOOL_IMAGE,
        (JDIMENSION) jround_up((long) compptr->width_in_blocks, (long) compptr->h_samp_factor),
        (JDIMENSION) compptr->v_samp_factor) : NULL;
      if (cinfo->master->trellis_quant) coef->whole_image_uq[ci] = (*cinfo->mem->request_virt_barray)`,
  ],
  [
    'jccoefct.c',
    `    buffer_dst = (*cinfo->mem->access_virt_barray)
      ((j_common_ptr) cinfo, coef->whole_image_uq[ci],`,
    `    buffer_dst = coef->whole_image_uq[ci] == NULL ? coef->uq_rows[ci] : (*cinfo->mem->access_virt_barray)
      ((j_common_ptr) cinfo, coef->whole_image_uq[ci],`,
  ],
  [
    'jccoefct.c',
    `                                   buffer_dst[block_row]);`,
    `                                   buffer_dst == NULL ? NULL : buffer_dst[block_row]);
      if (coef->uq_rows[ci] != NULL) {
        c_derived_tbl dctbl_data, actbl_data;
        c_derived_tbl *dctbl = &dctbl_data, *actbl = &actbl_data;
        int save_Ss = cinfo->Ss, save_Se = cinfo->Se; /* the first pass runs in scan 0 (DC only) */
        jpeg_make_c_derived_tbl(cinfo, TRUE, compptr->dc_tbl_no, &dctbl);
        jpeg_make_c_derived_tbl(cinfo, FALSE, compptr->ac_tbl_no, &actbl);
        if (block_row == 0) lastDC = 0;
        cinfo->Ss = 0; cinfo->Se = DCTSIZE2 - 1;
        quantize_trellis(cinfo, dctbl, actbl, thisblockrow, buffer_dst[block_row], blocks_across,
                         cinfo->quant_tbl_ptrs[compptr->quant_tbl_no],
                         cinfo->master->norm_src[compptr->quant_tbl_no],
                         cinfo->master->norm_coef[compptr->quant_tbl_no],
                         &lastDC, block_row > 0 ? buffer[block_row-1] : NULL,
                         block_row > 0 ? buffer_dst[block_row-1] : NULL);
        cinfo->Ss = save_Ss; cinfo->Se = save_Se;
      }`,
  ],
  // The guard's look at the candidate (issue 24, CPU): the encoder's whole-image coefficient arrays are
  // handed to mozjpeg-glue.c (mozjpeg_coef_arrays, read right after jpeg_start_compress), which computes
  // the luma at the guard's DCT scale from the final quantised coefficients during the last output pass,
  // with the decoder's own IDCT: the same pixels a decode of the written file gives, without parsing it.
  [
    'jccoefct.c',
    `int mozjpeg_row_trellis = 0; /* set by mozjpeg-glue.c around jpeg_start_compress */`,
    `int mozjpeg_row_trellis = 0; /* set by mozjpeg-glue.c around jpeg_start_compress */
jvirt_barray_ptr *mozjpeg_coef_arrays = NULL; /* the last coefficient controller's arrays (NULL: single pass) */`,
  ],
  [
    'jccoefct.c',
    `  /* Create the coefficient buffer. */
  if (need_full_buffer) {`,
    `  /* Create the coefficient buffer. */
  mozjpeg_coef_arrays = need_full_buffer ? coef->whole_image : NULL;
  if (need_full_buffer) {`,
  ],
  // Band decoding (tiles of a progressive original too large to hold whole): the decoder keeps the
  // coefficients of a band of iMCU rows only (mozjpeg_band_first/rows, set by mozjpeg-glue.c around
  // jpeg_read_coefficients). Every scan is still parsed for every block; blocks outside the band are
  // decoded into a scratch row and dropped. AC refinement scans read which coefficients are already
  // nonzero (that decides whether a correction bit follows), so for blocks outside the band a 64-bit
  // nonzero mask per block is kept (8 B per block instead of 128) and loaded into the scratch before
  // each refinement scan. Inside the band the coefficients are exactly those of a whole decode.
  [
    'jdcoefct.h',
    `  jvirt_barray_ptr whole_image[MAX_COMPONENTS];
#endif`,
    `  jvirt_barray_ptr whole_image[MAX_COMPONENTS];
#endif
  int band_first, band_rows;          /* iMCU rows kept (band_first < 0: all) */
  JBLOCKARRAY band_scratch[MAX_COMPONENTS];
  unsigned long long *band_mask[MAX_COMPONENTS]; /* nonzero coefficients of every block */
  JDIMENSION band_mask_w[MAX_COMPONENTS];`,
  ],
  [
    'jdcoefct.c',
    `#include "jpegcomp.h"`,
    `#include "jpegcomp.h"
int mozjpeg_band_first = -1, mozjpeg_band_rows = 0; /* set by mozjpeg-glue.c around jpeg_read_coefficients */

/* Loads (before a scan) or saves (after it) the nonzero masks of one iMCU row of a component outside the band. */
LOCAL(void)
band_masks (j_decompress_ptr cinfo, my_coef_ptr coef, jpeg_component_info *compptr, boolean save)
{
  int ci = compptr->component_index, r, k;
  JDIMENSION b, w = coef->band_mask_w[ci];
  JBLOCKARRAY rows = coef->band_scratch[ci];
  for (r = 0; r < compptr->v_samp_factor; r++) {
    unsigned long long *m = coef->band_mask[ci] +
      ((size_t) cinfo->input_iMCU_row * compptr->v_samp_factor + r) * w;
    for (b = 0; b < w; b++) {
      JCOEF *blk = rows[r][b];
      if (save) {
        unsigned long long bits = m[b];
        for (k = cinfo->Ss; k <= cinfo->Se; k++) {
          int pos = jpeg_natural_order[k];
          if (blk[pos]) bits |= 1ULL << pos;
        }
        m[b] = bits;
      } else {
        jzero_far((void *) blk, sizeof(JBLOCK));
        if (cinfo->Ss > 0 && cinfo->Ah > 0) {
          unsigned long long bits = m[b];
          for (k = cinfo->Ss; k <= cinfo->Se; k++) {
            int pos = jpeg_natural_order[k];
            if ((bits >> pos) & 1) blk[pos] = 1;
          }
        }
      }
    }
  }
}

LOCAL(boolean)
band_has (my_coef_ptr coef, JDIMENSION iMCU_row)
{
  return coef->band_first < 0 || (iMCU_row >= (JDIMENSION) coef->band_first &&
                                  iMCU_row < (JDIMENSION) (coef->band_first + coef->band_rows));
}`,
  ],
  [
    'jdcoefct.c',
    `  /* Align the virtual buffers for the components used in this scan. */
  for (ci = 0; ci < cinfo->comps_in_scan; ci++) {
    compptr = cinfo->cur_comp_info[ci];
    buffer[ci] = (*cinfo->mem->access_virt_barray)
      ((j_common_ptr) cinfo, coef->whole_image[compptr->component_index],
       cinfo->input_iMCU_row * compptr->v_samp_factor,
       (JDIMENSION) compptr->v_samp_factor, TRUE);`,
    `  boolean in_band = band_has(coef, cinfo->input_iMCU_row);
  /* Align the virtual buffers for the components used in this scan. */
  for (ci = 0; ci < cinfo->comps_in_scan; ci++) {
    compptr = cinfo->cur_comp_info[ci];
    if (!in_band) {
      buffer[ci] = coef->band_scratch[compptr->component_index];
      if (coef->MCU_vert_offset == 0 && coef->MCU_ctr == 0) band_masks(cinfo, coef, compptr, FALSE);
      continue;
    }
    buffer[ci] = (*cinfo->mem->access_virt_barray)
      ((j_common_ptr) cinfo, coef->whole_image[compptr->component_index],
       (cinfo->input_iMCU_row - (coef->band_first < 0 ? 0 : coef->band_first)) * compptr->v_samp_factor,
       (JDIMENSION) compptr->v_samp_factor, TRUE);`,
  ],
  [
    'jdcoefct.c',
    `  /* Completed the iMCU row, advance counters for next one */
  if (++(cinfo->input_iMCU_row) < cinfo->total_iMCU_rows) {
    start_iMCU_row(cinfo);
    return JPEG_ROW_COMPLETED;`,
    `  if (!in_band && cinfo->Ss > 0)
    for (ci = 0; ci < cinfo->comps_in_scan; ci++) band_masks(cinfo, coef, cinfo->cur_comp_info[ci], TRUE);
  /* Completed the iMCU row, advance counters for next one */
  if (++(cinfo->input_iMCU_row) < cinfo->total_iMCU_rows) {
    start_iMCU_row(cinfo);
    return JPEG_ROW_COMPLETED;`,
  ],
  [
    'jdcoefct.c',
    `    /* Don't bother to IDCT an uninteresting component. */
    if (! compptr->component_needed)
      continue;
    /* Align the virtual buffer for this component. */
    buffer = (*cinfo->mem->access_virt_barray)
      ((j_common_ptr) cinfo, coef->whole_image[ci],
       cinfo->output_iMCU_row * compptr->v_samp_factor,`,
    `    /* Don't bother to IDCT an uninteresting component (or one outside the band). */
    if (! compptr->component_needed || !band_has(coef, cinfo->output_iMCU_row))
      continue;
    /* Align the virtual buffer for this component. */
    buffer = (*cinfo->mem->access_virt_barray)
      ((j_common_ptr) cinfo, coef->whole_image[ci],
       (cinfo->output_iMCU_row - (coef->band_first < 0 ? 0 : coef->band_first)) * compptr->v_samp_factor,`,
  ],
  [
    'jdcoefct.c',
    `    int ci, access_rows;
    jpeg_component_info *compptr;

    for (ci = 0, compptr = cinfo->comp_info; ci < cinfo->num_components;
         ci++, compptr++) {
      access_rows = compptr->v_samp_factor;`,
    `    int ci, access_rows;
    jpeg_component_info *compptr;

    coef->band_first = mozjpeg_band_first;
    coef->band_rows = mozjpeg_band_rows;
    if (coef->band_first >= 0 && (coef->band_first >= (int) cinfo->total_iMCU_rows || coef->band_rows < 1))
      ERREXIT(cinfo, JERR_BAD_BUFFER_MODE);
    if (coef->band_first >= 0 && coef->band_first + coef->band_rows > (int) cinfo->total_iMCU_rows)
      coef->band_rows = (int) cinfo->total_iMCU_rows - coef->band_first;
    if (coef->band_first >= 0) cinfo->do_block_smoothing = FALSE; /* reads neighbours outside the band */
    for (ci = 0, compptr = cinfo->comp_info; ci < cinfo->num_components;
         ci++, compptr++) {
      coef->band_scratch[ci] = NULL;
      coef->band_mask[ci] = NULL;
      if (coef->band_first >= 0) {
        size_t w = (size_t) jround_up((long) compptr->width_in_blocks, (long) compptr->h_samp_factor);
        size_t h = (size_t) cinfo->total_iMCU_rows * compptr->v_samp_factor;
        coef->band_mask_w[ci] = (JDIMENSION) w;
        coef->band_mask[ci] = (unsigned long long *) (*cinfo->mem->alloc_large)
          ((j_common_ptr) cinfo, JPOOL_IMAGE, w * h * sizeof(unsigned long long));
        jzero_far((void *) coef->band_mask[ci], w * h * sizeof(unsigned long long));
        coef->band_scratch[ci] = (*cinfo->mem->alloc_barray)
          ((j_common_ptr) cinfo, JPOOL_IMAGE, (JDIMENSION) w, (JDIMENSION) compptr->v_samp_factor);
      }
      access_rows = compptr->v_samp_factor;`,
  ],
  [
    'jdcoefct.c',
    `         (JDIMENSION) jround_up((long) compptr->height_in_blocks,
                                (long) compptr->v_samp_factor),
         (JDIMENSION) access_rows);`,
    `         coef->band_first >= 0 ? (JDIMENSION) (coef->band_rows * compptr->v_samp_factor) :
         (JDIMENSION) jround_up((long) compptr->height_in_blocks,
                                (long) compptr->v_samp_factor),
         (JDIMENSION) (coef->band_first >= 0 ? compptr->v_samp_factor : access_rows));`,
  ],
];

function patchSource(src) {
  for (const [file, from, to] of PATCHES) {
    const path = join(src, file);
    const text = readFileSync(path, 'utf8');
    if (text.split(from).length !== 2) fail(`patch does not apply to ${file}: ${from.slice(0, 60)}`);
    writeFileSync(path, text.replace(from, to));
  }
}

const env = emccEnv('1488672000', EMCC_VERSION);

const work = mkdtempSync(join(tmpdir(), 'mozjpeg-wasm-'));
try {
  const packed = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', work], {
    cwd: work,
    encoding: 'utf8',
  }).trim();
  execFileSync('tar', ['xzf', join(work, packed), '-C', work, 'package/vendor/source/mozjpeg.tar.gz']);
  const tarball = join(work, 'package/vendor/source/mozjpeg.tar.gz');
  if (sha256(readFileSync(tarball)) !== TARBALL_SHA256) fail('mozjpeg.tar.gz is not the pinned MozJPEG 3.2 source');
  execFileSync('tar', ['xzf', tarball, '-C', work], { env });
  const src = join(work, 'mozjpeg');
  // Quoted includes look in the source's own folder first, so the headers go there.
  for (const h of ['jconfig.h', 'jconfigint.h']) copyFileSync(join(here, h), join(src, h));
  patchSource(src);
  copyFileSync(join(here, 'mozjpeg-glue.c'), join(src, 'mozjpeg-glue.c'));
  const out = join(work, 'mozjpeg.wasm');
  execFileSync('emcc', [...FLAGS, `-ffile-prefix-map=${src}=.`, '-I.', ...SOURCES, 'mozjpeg-glue.c', '-o', out], {
    cwd: src,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wasm = readFileSync(out);
  recordOrCheck(here, 'mozjpeg.wasm', wasm, check);
} finally {
  rmSync(work, { recursive: true, force: true });
}
