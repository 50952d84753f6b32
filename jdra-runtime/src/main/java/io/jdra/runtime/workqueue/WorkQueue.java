package io.jdra.runtime.workqueue;

/**
 * A work queue with client-go's contract ({@code util/workqueue.TypedInterface}). Items are keys
 * (for example {@code "claim:ns/name"}): small immutable values with {@code equals}/{@code
 * hashCode}; never null.
 *
 * <ul>
 *   <li><b>Deduplication</b>: an item added several times before a worker gets it is handed out
 *       once.
 *   <li><b>No concurrent processing of one item</b>: between {@link #get()} and {@link #done} an
 *       item is <i>processing</i>; adding it meanwhile marks it dirty, and it is queued again only
 *       when {@code done} is called. So a key is processed by at most one worker at a time, and a
 *       change that arrives during processing is never lost.
 *   <li><b>Fair order</b>: items are handed out in the order they were (first) added.
 *   <li><b>Shut-down</b>: after {@link #shutDown()} adds are ignored and {@link #get()} returns
 *       null once the queue is empty; workers then exit.
 * </ul>
 *
 * <p>Every item returned by {@code get()} must be passed to {@code done} exactly once, also when
 * processing fails (failed items are re-added with {@code addRateLimited} <i>before</i> {@code
 * done}). Thread-safe; {@code get()} blocks.
 */
public interface WorkQueue<T> {
  /** Marks the item as needing processing. Ignored after shut-down. */
  void add(T item);

  /** The number of items waiting to be handed out (not counting items being processed). */
  int len();

  /**
   * Blocks until an item can be processed and returns it, marking it as processing; returns null
   * when the queue is shut down and holds no more items. Interrupting the thread also returns null
   * (with the interrupt flag set).
   */
  T get();

  /** Marks the item as processed; if it was added meanwhile, it is queued again. */
  void done(T item);

  /** Ignores further adds and makes {@code get} return null once the queue is empty. */
  void shutDown();

  /**
   * As {@link #shutDown()}, then blocks until every item being processed is {@code done}. Items
   * still queued are handed out to workers that keep calling {@code get}, as upstream.
   */
  void shutDownWithDrain();

  boolean shuttingDown();
}
