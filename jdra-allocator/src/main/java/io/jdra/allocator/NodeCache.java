package io.jdra.allocator;

/**
 * What allocators remember about one node between calls, kept by the caller next to its own data
 * about that node (the scheduler keeps one per node in its node info): a node's pools and devices
 * are then found through this object instead of a lookup by node name in the slice index, whose
 * hash-map entries are cold for every node of every scheduling cycle. Use one instance per node
 * name, for every node object of that name; an allocator on another slice index finds nothing here
 * and replaces the content. Thread-safe; the content is opaque.
 */
public final class NodeCache {
  /** The last node view handed out for this node; checked against the asking index and node. */
  private volatile Object view;

  /** The kept view, or null; for the allocator's internals. */
  public Object view() {
    return view;
  }

  /** Keeps a view; for the allocator's internals. */
  public void view(Object v) {
    view = v;
  }
}
