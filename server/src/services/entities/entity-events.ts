import { EventEmitter } from 'node:events';

/**
 * EntityEvent is emitted once per record after a write has committed:
 * - `create` and `update` carry the record as stored (every field, before any field-level read rule);
 * - `delete` carries the record as it was just before deletion (delete-many emits one per record).
 * NB: `record` is unfiltered. A subscriber that forwards it (realtime) must re-check the reader's read
 * rule and strip hidden fields for each recipient before sending anything.
 */
export interface EntityEvent {
  appId: string;
  entity: string;
  type: 'create' | 'update' | 'delete';
  id: string;
  record: Record<string, unknown>;
}

/** EntityEvents is the in-process channel from the entities service to its subscribers. */
export interface EntityEvents {
  /** emit delivers event synchronously to every subscriber; a throwing subscriber never fails the write. */
  emit(event: EntityEvent): void;
  /** subscribe adds listener and returns the function that removes it. */
  subscribe(listener: (event: EntityEvent) => void): () => void;
}

/** createEntityEvents returns an EntityEvents backed by a Node EventEmitter; onError sees subscriber failures. */
export function createEntityEvents(onError: (error: unknown) => void = () => {}): EntityEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit(event) {
      for (const listener of emitter.listeners('event')) {
        try {
          (listener as (event: EntityEvent) => void)(event);
        } catch (error) {
          onError(error);
        }
      }
    },
    subscribe(listener) {
      emitter.on('event', listener);
      return () => emitter.off('event', listener);
    },
  };
}
