import { describe, expect, it } from 'vitest';
import { formatSize } from '../../../admin/src/lib/format-size';

describe('formatSize', () => {
  it.each([
    [0, '0.00 KB'],
    [1024, '1.00 KB'],
    [1048575, '1,024.00 KB'],
    [1048576, '1.00 MB'],
    [1073741823, '1,024.00 MB'],
    [1073741824, '1.00 GB'],
    [-3, '0.00 KB'],
  ])('%i -> %s', (bytes, text) => expect(formatSize(bytes)).toBe(text));
});
