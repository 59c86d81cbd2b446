/** The event fan-out every media adapter (call and live room, Agora and local) hands its port's `subscribe`. */
export interface EventFanOut<E> {
  emit(event: E): void;
  subscribe(listener: (event: E) => void): () => void;
}

export function eventFanOut<E>(): EventFanOut<E> {
  const listeners = new Set<(event: E) => void>();
  return {
    emit(event) {
      for (const listener of [...listeners]) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
