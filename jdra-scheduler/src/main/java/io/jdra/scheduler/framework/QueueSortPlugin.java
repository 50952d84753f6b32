package io.jdra.scheduler.framework;

/** Orders activeQ: {@code less(a, b)} true means a is popped before b. Thread-safe, pure. */
public interface QueueSortPlugin extends Plugin {
  boolean less(QueuedPodInfo a, QueuedPodInfo b);
}
