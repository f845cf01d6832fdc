// JS-side bytes one image holds besides the codec heaps: tiles and stand-ins of the original, encoder
// outputs while they are joined, judged and given their metadata, stripped copies. Counted where they are
// made and dropped (`hold` returns the release), so the paths can size what they may still allocate
// (`heldBytes`) and the tests can show the accounted peak: codec heap peak + this peak within the budget.
// One image at a time per isolate (one-at-a-time.ts), so one ledger per isolate.
let held = 0;
let peak = 0;
let image = 0;

/** A new image: nothing held (what the last one kept went with its result). */
export function startImage(): void {
  image++;
  held = 0;
  peak = 0;
}

/** Counts `bytes` as held until the returned function is called (calling it again does nothing). */
export function hold(bytes: number): () => void {
  held += bytes;
  if (held > peak) peak = held;
  let open = true;
  const of = image;
  return () => {
    if (open && of === image) held -= bytes;
    open = false;
  };
}

export function heldBytes(): number {
  return held;
}

/** Largest held total of the current (or last) image. */
export function jsPeakBytes(): number {
  return peak;
}
