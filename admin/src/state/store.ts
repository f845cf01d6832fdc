import { createContext, createElement, useCallback, useContext, useSyncExternalStore, type ReactNode } from 'react';

// The admin's shared state: a few values (the session's settings, the interface language, the toast, the
// open dialogs) that any part of the screen reads and sets, with jotai's API for what the admin uses of it
// (issue 26: first-screen JavaScript: jotai was about 2 KB gzipped in every screen's first JavaScript).
// An atom is a value's identity and its initial value, or a value computed from other atoms; a store
// holds the values (one per app, the Worker's render has its own); a component reads an atom through the
// store its <Provider> names (else the default one) and re-renders when the value changes (Object.is).
// A computed atom is computed on each read: it returns a primitive (or a value it does not create anew),
// else React would see a new value on every read.

type Getter = <V>(atom: Atom<V>) => V;
export type Atom<V> = { init: V; read?: (get: Getter) => V };
export type SetStateAction<V> = V | ((prev: V) => V);

export type Store = {
  get: <V>(atom: Atom<V>) => V;
  set: <V>(atom: Atom<V>, value: SetStateAction<V>) => void;
  sub: (atom: Atom<unknown>, listener: () => void) => () => void;
};

export function atom<V>(read: (get: Getter) => V): Atom<V>;
export function atom<V>(init: V): Atom<V>;
export function atom<V>(initOrRead: V | ((get: Getter) => V)): Atom<V> {
  return typeof initOrRead === 'function'
    ? { init: undefined as V, read: initOrRead as (get: Getter) => V }
    : { init: initOrRead };
}

export function createStore(): Store {
  const values = new Map<Atom<unknown>, unknown>();
  const listeners = new Set<() => void>();
  const get = <V>(a: Atom<V>): V => (a.read ? a.read(get) : values.has(a) ? (values.get(a) as V) : a.init);
  return {
    get,
    set(a, value) {
      const prev = get(a);
      const next = typeof value === 'function' ? (value as (p: typeof prev) => typeof prev)(prev) : value;
      if (Object.is(prev, next)) return;
      values.set(a, next);
      for (const l of [...listeners]) l();
    },
    // Every listener hears every change; a reader re-renders only when its atom's value changed
    // (useSyncExternalStore compares), and computed atoms are read anew.
    sub(_a, listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const defaultStore = createStore();
const StoreContext = createContext<Store>(defaultStore);

export function Provider({ store, children }: { store: Store; children?: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children);
}

export function useAtomValue<V>(a: Atom<V>): V {
  const store = useContext(StoreContext);
  const subscribe = useCallback((listener: () => void) => store.sub(a, listener), [store, a]);
  const read = () => store.get(a);
  return useSyncExternalStore(subscribe, read, read);
}

export function useSetAtom<V>(a: Atom<V>): (value: SetStateAction<V>) => void {
  const store = useContext(StoreContext);
  return useCallback((value: SetStateAction<V>) => store.set(a, value), [store, a]);
}

export function useAtom<V>(a: Atom<V>): [V, (value: SetStateAction<V>) => void] {
  return [useAtomValue(a), useSetAtom(a)];
}
