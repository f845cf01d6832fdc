import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mockApi, renderApp, settingInfo } from '../helpers/render-app';
import { setUpImagePageEnvironment } from './page-environment';
import { historyRow, idleSchedule, page, totals } from './fixtures';

// Issue 26: a poll tick (auto mode reads the history every 3 s) must not render the whole table again.
// Each history row formats its saving (comp_ratio) once per render of the row: counting the formatted
// values per row counts the row's renders.
const formatted: unknown[] = [];
function countFormats() {
  // `format` is a getter on the prototype (it hands out a bound function): wrapped for this test only.
  const proto = Intl.NumberFormat.prototype;
  const descriptor = Object.getOwnPropertyDescriptor(proto, 'format');
  const getFormat = descriptor?.get;
  if (!descriptor || !getFormat) throw new Error('Intl.NumberFormat.prototype.format is no getter here');
  Object.defineProperty(proto, 'format', {
    ...descriptor,
    get(this: Intl.NumberFormat) {
      const format = getFormat.call(this) as (value: number) => string;
      return (value: number) => {
        formatted.push(value);
        return format(value);
      };
    },
  });
  onTestFinished(() => {
    Object.defineProperty(proto, 'format', descriptor);
  });
}
const rendersOf = (compRatio: number) => formatted.filter((v) => v === compRatio / 100).length;

const advance = setUpImagePageEnvironment();
const H = '/api/v2/image-opt/getImageOptDataPage';

describe('/image_optimisation history while auto mode polls', () => {
  it('a poll tick renders again only the row whose data changed', async () => {
    countFormats();
    let tick = 0;
    const api = mockApi({
      '/api/v2/image-opt/getImgOptTotal': totals({ auto: 1 }),
      '/api/v2/image-opt/getOptSchedule': idleSchedule(),
      '/api/v2/image-opt/getSettings': { ack: 1, data: totals({ auto: 1 }).settings },
      // Row 2 is being optimised and has finished by the second read; rows 1 and 3 stay as they were.
      [H]: () => {
        tick += 1;
        return page([
          historyRow(1, { comp_ratio: 11.11 }),
          historyRow(2, tick === 1 ? { status: 'implement', comp_ratio: 22.22 } : { status: 'finished', comp_ratio: 44.44 }),
          historyRow(3, { comp_ratio: 33.33 }),
        ]);
      },
    });
    renderApp('/image_optimisation', { info: settingInfo({ new_guide_status: 0 }) });
    expect((await screen.findAllByText('Product 3')).length).toBeGreaterThan(0);
    await waitFor(() => expect(screen.getAllByText('In progress').length).toBeGreaterThan(0));
    const before = { row1: rendersOf(11.11), row2: rendersOf(22.22), row3: rendersOf(33.33) };
    expect(before.row1).toBeGreaterThan(0);

    await advance(3000); // one poll tick
    await waitFor(() => expect(api.callsTo(H).length).toBe(2));
    await waitFor(() => expect(screen.queryByText('In progress')).toBeNull());
    await advance(100); // whatever the answer still renders

    expect(rendersOf(44.44)).toBeGreaterThan(0); // the changed row rendered with its new data
    expect(rendersOf(22.22)).toBe(before.row2);
    expect(rendersOf(11.11)).toBe(before.row1); // the others did not render again
    expect(rendersOf(33.33)).toBe(before.row3);
  });
});
