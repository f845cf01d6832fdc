// Alpha planes for the WebP alpha tests (webp-alpha.test.ts, webp-vp8l-dec.test.ts).
export type AlphaGen = (x: number, y: number, w: number, h: number) => number;

/** Alpha planes a shop meets: cut-outs with soft edges, ramps, shadows, binary masks, noise. */
export const ALPHAS: Record<string, AlphaGen> = {
  // A product cut-out: an ellipse, opaque inside, a 3-pixel anti-aliased edge, transparent outside.
  cutout: (x, y, w, h) => {
    const d = Math.hypot((x - w / 2) / (w * 0.4), (y - h / 2) / (h * 0.42)) - 1;
    return Math.max(0, Math.min(255, Math.round(((-d * Math.min(w, h) * 0.4) / 3) * 255)));
  },
  // A soft drop shadow: radial falloff (many levels), the case gradient filtering is for.
  shadow: (x, y, w, h) => Math.max(0, Math.min(255, Math.round(255 - Math.hypot(x - w / 2, y - h / 2) * (400 / Math.min(w, h))))),
  ramp: (x, _y, w) => (x < w / 4 ? 0 : Math.min(255, Math.round(((x - w / 4) / (w / 2)) * 255))),
  binary: (x, y) => (((x >> 5) ^ (y >> 4)) & 1 ? 255 : 0),
  // Text-like: a few levels in small shapes.
  levels: (x, y) => [0, 64, 128, 255][((x * 7) ^ (y * 3)) & 3 & ((x >> 3) & (y >> 2) & 1 ? 3 : 0)]!,
  noise: (x, y) => (Math.imul((x * 73856093) ^ (y * 19349663), 2654435761) >>> 24) & 0xff,
  constant: () => 128,
};
