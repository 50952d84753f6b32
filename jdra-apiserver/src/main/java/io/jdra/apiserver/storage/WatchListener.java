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
}
