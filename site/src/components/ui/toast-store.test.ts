import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY, createToastStore, toastReducer } from './toast-store';
import type { Toast, ToastState } from './toast-store';

function makeToast(id: string, extra: Partial<Toast> = {}): Toast {
  return { id, title: `Toast ${id}`, open: true, ...extra };
}

function stateOf(...ids: string[]): ToastState {
  return { toasts: ids.map((id) => makeToast(id)) };
}

const ids = (state: ToastState) => state.toasts.map((toast) => toast.id);

describe('toastReducer', () => {
  it('has the documented limits', () => {
    expect(TOAST_LIMIT).toBe(20);
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
  });

  it('ADD_TOAST prepends the newest toast', () => {
    const next = toastReducer(stateOf('1', '2'), { type: 'ADD_TOAST', toast: makeToast('3') });
    expect(ids(next)).toEqual(['3', '1', '2']);
    expect(next.toasts[0]).toEqual(makeToast('3'));
  });

  it('ADD_TOAST keeps at most TOAST_LIMIT toasts, newest first', () => {
    let state: ToastState = { toasts: [] };
    for (let i = 1; i <= 25; i += 1) {
      state = toastReducer(state, { type: 'ADD_TOAST', toast: makeToast(String(i)) });
    }
    expect(state.toasts).toHaveLength(TOAST_LIMIT);
    expect(ids(state)).toEqual(Array.from({ length: 20 }, (_, index) => String(25 - index)));
  });

  it('ADD_TOAST does not mutate the previous state', () => {
    const before = stateOf('1');
    toastReducer(before, { type: 'ADD_TOAST', toast: makeToast('2') });
    expect(ids(before)).toEqual(['1']);
  });

  it('UPDATE_TOAST merges into the toast with that id only', () => {
    const state: ToastState = {
      toasts: [makeToast('1', { description: 'one' }), makeToast('2', { description: 'two' })],
    };
    const next = toastReducer(state, {
      type: 'UPDATE_TOAST',
      toast: { id: '2', title: 'Changed', variant: 'destructive' },
    });
    expect(next.toasts).toEqual([
      { id: '1', title: 'Toast 1', description: 'one', open: true },
      { id: '2', title: 'Changed', description: 'two', variant: 'destructive', open: true },
    ]);
  });

  it('UPDATE_TOAST with an unknown id changes nothing', () => {
    const state = stateOf('1', '2');
    const next = toastReducer(state, { type: 'UPDATE_TOAST', toast: { id: '9', title: 'x' } });
    expect(next.toasts).toEqual(state.toasts);
  });

  it('DISMISS_TOAST with an id closes only that toast', () => {
    const next = toastReducer(stateOf('1', '2', '3'), { type: 'DISMISS_TOAST', toastId: '2' });
    expect(next.toasts.map((toast) => [toast.id, toast.open])).toEqual([
      ['1', true],
      ['2', false],
      ['3', true],
    ]);
  });

  it('DISMISS_TOAST without an id closes every toast', () => {
    const next = toastReducer(stateOf('1', '2', '3'), { type: 'DISMISS_TOAST' });
    expect(next.toasts.map((toast) => toast.open)).toEqual([false, false, false]);
    expect(ids(next)).toEqual(['1', '2', '3']);
  });

  it('REMOVE_TOAST with an id removes only that toast', () => {
    const next = toastReducer(stateOf('1', '2', '3'), { type: 'REMOVE_TOAST', toastId: '2' });
    expect(ids(next)).toEqual(['1', '3']);
  });

  it('REMOVE_TOAST without an id removes every toast', () => {
    const next = toastReducer(stateOf('1', '2', '3'), { type: 'REMOVE_TOAST' });
    expect(next.toasts).toEqual([]);
  });
});

describe('createToastStore', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts empty', () => {
    expect(createToastStore().getState()).toEqual({ toasts: [] });
  });

  it('toast() adds an open toast with a fresh id, newest first', () => {
    const store = createToastStore();
    const first = store.toast({ title: 'First' });
    const second = store.toast({ title: 'Second', description: 'more', variant: 'destructive' });
    expect(first.id).not.toBe(second.id);
    expect(store.getState().toasts).toEqual([
      { id: second.id, title: 'Second', description: 'more', variant: 'destructive', open: true },
      { id: first.id, title: 'First', open: true },
    ]);
  });

  it('toast().update merges into that toast only and keeps its id', () => {
    const store = createToastStore();
    const first = store.toast({ title: 'First' });
    const second = store.toast({ title: 'Second' });
    first.update({ title: 'Updated', description: 'now' });
    expect(store.getState().toasts).toEqual([
      { id: second.id, title: 'Second', open: true },
      { id: first.id, title: 'Updated', description: 'now', open: true },
    ]);
  });

  it('toast().dismiss closes that toast and removes it exactly TOAST_REMOVE_DELAY ms later', () => {
    const store = createToastStore();
    const first = store.toast({ title: 'First' });
    const second = store.toast({ title: 'Second' });

    first.dismiss();
    expect(store.getState().toasts).toEqual([
      { id: second.id, title: 'Second', open: true },
      { id: first.id, title: 'First', open: false },
    ]);
    expect(vi.getTimerCount()).toBe(1);

    vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1);
    expect(ids(store.getState())).toEqual([second.id, first.id]);

    vi.advanceTimersByTime(1);
    expect(store.getState().toasts).toEqual([{ id: second.id, title: 'Second', open: true }]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a second dismiss of the same toast does not queue a second timer or delay removal', () => {
    const store = createToastStore();
    const only = store.toast({ title: 'Only' });
    const listener = vi.fn();

    only.dismiss();
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY / 2);
    only.dismiss();
    expect(vi.getTimerCount()).toBe(1);

    store.subscribe(listener);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY / 2);
    expect(store.getState().toasts).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);

    vi.advanceTimersByTime(TOAST_REMOVE_DELAY * 2);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('store.dismiss() without an id closes all toasts and removes them all after the delay', () => {
    const store = createToastStore();
    store.toast({ title: 'A' });
    store.toast({ title: 'B' });
    store.toast({ title: 'C' });

    store.dismiss();
    expect(store.getState().toasts.map((toast) => toast.open)).toEqual([false, false, false]);
    expect(vi.getTimerCount()).toBe(3);

    vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1);
    expect(store.getState().toasts).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(store.getState().toasts).toEqual([]);
  });

  it('store.dismiss(id) closes only that toast', () => {
    const store = createToastStore();
    const a = store.toast({ title: 'A' });
    const b = store.toast({ title: 'B' });
    store.dismiss(a.id);
    expect(store.getState().toasts.map((toast) => [toast.id, toast.open])).toEqual([
      [b.id, true],
      [a.id, false],
    ]);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY);
    expect(ids(store.getState())).toEqual([b.id]);
  });

  it('dispatching REMOVE_TOAST removes by id, or all without an id', () => {
    const store = createToastStore();
    const a = store.toast({ title: 'A' });
    const b = store.toast({ title: 'B' });
    const c = store.toast({ title: 'C' });
    store.dispatch({ type: 'REMOVE_TOAST', toastId: b.id });
    expect(ids(store.getState())).toEqual([c.id, a.id]);
    store.dispatch({ type: 'REMOVE_TOAST' });
    expect(store.getState().toasts).toEqual([]);
  });

  it('keeps at most TOAST_LIMIT toasts from toast()', () => {
    const store = createToastStore();
    const created = Array.from({ length: 25 }, (_, index) => store.toast({ title: `T${index}` }).id);
    expect(ids(store.getState())).toEqual(created.slice(5).reverse());
  });

  it('notifies subscribers with the new state on every change until unsubscribed', () => {
    const store = createToastStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);

    const handle = store.toast({ title: 'Hello' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenLastCalledWith({ toasts: [{ id: handle.id, title: 'Hello', open: true }] });

    handle.update({ description: 'world' });
    expect(listener).toHaveBeenCalledTimes(2);
    expect(listener).toHaveBeenLastCalledWith(store.getState());
    expect(store.getState().toasts[0]?.description).toBe('world');

    handle.dismiss();
    expect(listener).toHaveBeenCalledTimes(3);
    expect(listener).toHaveBeenLastCalledWith({
      toasts: [{ id: handle.id, title: 'Hello', description: 'world', open: false }],
    });

    vi.advanceTimersByTime(TOAST_REMOVE_DELAY);
    expect(listener).toHaveBeenCalledTimes(4);
    expect(listener).toHaveBeenLastCalledWith({ toasts: [] });

    unsubscribe();
    store.toast({ title: 'Unheard' });
    expect(listener).toHaveBeenCalledTimes(4);
  });
});
