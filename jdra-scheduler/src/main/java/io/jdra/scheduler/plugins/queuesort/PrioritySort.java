package io.jdra.scheduler.plugins.queuesort;

import io.jdra.scheduler.framework.QueueSortPlugin;
import io.jdra.scheduler.framework.QueuedPodInfo;

/** Higher {@code spec.priority} first, then earlier arrival (upstream {@code PrioritySort}). */
public final class PrioritySort implements QueueSortPlugin {
  public static final String NAME = "PrioritySort";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
    int pa = priority(a);
    int pb = priority(b);
    return pa > pb || (pa == pb && a.timestamp().isBefore(b.timestamp()));
  }

  private static int priority(QueuedPodInfo p) {
    Integer v = p.podInfo().pod().getSpec().getPriority();
    return v == null ? 0 : v;
  }
}
