package io.jdra.apiserver.storage;

/**
 * Receives the events of one resource in resourceVersion order. Called with the store's lock held:
 * implementations must only enqueue, never block or call back into the store.
 */
public interface WatchListener {
  /** A change, delivered exactly once, in order. */
  void onEvent(WatchEvent event);

  /**
   * Every event of the resource up to {@code version} has been delivered; a watch may send a
   * BOOKMARK at this version.
   */
  default void onProgress(long version) {}

  /** An object of the state a watch starts from, announced as ADDED before any change. */
  default void onInitial(StoredObject object) {
    onEvent(new WatchEvent(WatchEvent.Type.ADDED, object, null));
  }

  /**
   * Every object of the starting state has been announced; the state was that of {@code version}
   * (upstream's BOOKMARK with the {@code k8s.io/initial-events-end} annotation).
   */
  default void onInitialEventsEnd(long version) {
    onProgress(version);
  }
}
