import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { atom, createStore, Provider, useAtom, useAtomValue, useSetAtom } from '../../admin/src/state/store';

// The admin's shared state (admin/src/state/store.ts: jotai's API for what the admin uses of it).

describe('the store', () => {
  it('holds each atom its value, starting from the initial one; updaters get the value before', () => {
    const count = atom(1);
    const name = atom<string | null>(null);
    const store = createStore();
    expect(store.get(count)).toBe(1);
    store.set(count, 5);
    store.set(count, (n) => n + 1);
    store.set(name, 'shop');
    expect([store.get(count), store.get(name)]).toEqual([6, 'shop']);
    expect(createStore().get(count)).toBe(1); // another store has its own values
  });

  it('computes an atom from others, anew after they change', () => {
    const info = atom<{ level: number } | null>(null);
    const level = atom((get) => get(info)?.level ?? 0);
    const store = createStore();
    expect(store.get(level)).toBe(0);
    store.set(info, { level: 3 });
    expect(store.get(level)).toBe(3);
  });

  it('tells its listeners of a change, not of a value set again, nor after they left', () => {
    const count = atom(0);
    const store = createStore();
    const heard = vi.fn();
    const leave = store.sub(count, heard);
    store.set(count, 1);
    store.set(count, 1);
    expect(heard).toHaveBeenCalledTimes(1);
    leave();
    store.set(count, 2);
    expect(heard).toHaveBeenCalledTimes(1);
  });
});

describe('the hooks', () => {
  const count = atom(0);
  const double = atom((get) => get(count) * 2);

  function Counter({ label }: { label: string }) {
    const [n, setN] = useAtom(count);
    const twice = useAtomValue(double);
    return (
      <button onClick={() => setN((v) => v + 1)}>
        {label} {n} {twice}
      </button>
    );
  }
  function Reset() {
    const set = useSetAtom(count);
    return <button onClick={() => set(0)}>reset</button>;
  }

  it('read the store their Provider names and re-render when a value they read changes', () => {
    const one = createStore();
    const two = createStore();
    render(
      <>
        <Provider store={one}>
          <Counter label="one" />
          <Reset />
        </Provider>
        <Provider store={two}>
          <Counter label="two" />
        </Provider>
      </>,
    );
    act(() => screen.getByText('one 0 0').click());
    act(() => screen.getByText('one 1 2').click());
    expect(screen.getByText('two 0 0')).toBeTruthy();
    act(() => two.set(count, 7)); // set outside React, as the shell does with the session's settings
    expect(screen.getByText('two 7 14')).toBeTruthy();
    act(() => screen.getByText('reset').click());
    expect(screen.getByText('one 0 0')).toBeTruthy();
    expect(one.get(count)).toBe(0);
  });
});
