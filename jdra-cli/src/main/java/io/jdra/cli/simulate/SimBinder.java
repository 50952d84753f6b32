package io.jdra.cli.simulate;

import io.jdra.runtime.Ctx;
import io.jdra.scheduler.framework.BindPlugin;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.Status;
import io.jdra.scheduler.plugins.defaultbinder.DefaultBinder;
import java.util.Map;

/** The binder of the simulation: records pod UID to node where DefaultBinder writes a Binding. */
final class SimBinder implements BindPlugin {
  private final Map<String, String> bound;

  SimBinder(Map<String, String> bound) {
    this.bound = bound;
  }

  @Override
  public String name() {
    return DefaultBinder.NAME;
  }

  @Override
  public Status bind(Ctx ctx, CycleState state, PodInfo pod, String nodeName) {
    bound.put(pod.uid(), nodeName);
    return null;
  }
}
