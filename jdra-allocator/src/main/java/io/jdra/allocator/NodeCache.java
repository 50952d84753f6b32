package io.jdra.allocator;

/**
 * What allocators remember about one node between calls, kept by the caller next to its own data
 * about that node (the scheduler keeps one per node in its node info): a node's pools and devices
 * are then found through this object instead of a lookup by node name in the slice index, whose
 * hash-map entries are cold for every node of every scheduling cycle. Use one instance per node
 * name, for every node object of that name; an allocator on another slice index finds nothing here
 * and replaces the content. It also keeps the node's last allocation outcome, handed out again
 * while the node's pools, their devices in use, the claims' specs and their classes stay the same.
 * Thread-safe; the content is opaque.
 */
public final class NodeCache {
  /** The last node view handed out for this node; checked against the asking index and node. */
  private volatile Object view;

  /** The last outcome on this node and what it was found for; see the allocator's NodeMemo. */
  private volatile Object memo;

  /**
   * Outcomes handed out again, for tests and probes: a plain field, exact when one thread at a time
   * uses this cache (as the scheduler's Filter does per node and pod).
   */
  private long hits;

  /** How many times this cache's kept outcome was handed out again. */
  public long hits() {
    return hits;
  }

  /** Counts one outcome handed out again; for the allocator's internals. */
  public void countHit() {
    hits++;
  }

  /** The kept outcome, or null; for the allocator's internals. */
  public Object memo() {
    return memo;
  }

  /** Keeps an outcome; for the allocator's internals. */
  public void memo(Object m) {
    memo = m;
  }

  /** The kept view, or null; for the allocator's internals. */
  public Object view() {
    return view;
  }

  /** Keeps a view; for the allocator's internals. */
  public void view(Object v) {
    view = v;
  }
}
