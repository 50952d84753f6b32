package io.jdra.scheduler.framework;

import io.jdra.runtime.Ctx;

/** Binds the pod to the node (writes {@code pods/binding}). Skip passes to the next binder. */
public interface BindPlugin extends Plugin {
  Status bind(Ctx ctx, CycleState state, PodInfo pod, String nodeName);
}
