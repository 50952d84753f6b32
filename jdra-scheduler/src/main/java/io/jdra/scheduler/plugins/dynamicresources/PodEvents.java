package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * Where DynamicResources records events about a pod (upstream's {@code fh.EventRecorder()}); the
 * scheduler passes its event sink. Must not block: PreBind calls it on a binding thread.
 */
@FunctionalInterface
public interface PodEvents {
  /** Records nothing (tools and tests that do not look at events). */
  PodEvents NONE = (pod, type, reason, action, note) -> {};

  void event(Pod pod, String type, String reason, String action, String note);
}
