package io.jdra.scheduler;

import io.jdra.api.features.FeatureGates;
import io.jdra.scheduler.framework.BindPlugin;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.Parallelizer;
import io.jdra.scheduler.framework.Status;
import io.jdra.scheduler.plugins.dynamicresources.ClaimWriter;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResourcesArgs;

/** The default profile over an in-memory DraManager, binding nowhere (for unit tests). */
public final class TestFrameworks {
  private TestFrameworks() {}

  public static final BindPlugin NO_BIND =
      new BindPlugin() {
        @Override
        public String name() {
          return "TestBinder";
        }

        @Override
        public Status bind(
            io.jdra.runtime.Ctx ctx,
            io.jdra.scheduler.framework.CycleState state,
            io.jdra.scheduler.framework.PodInfo pod,
            String nodeName) {
          return null;
        }
      };

  public static Framework defaultProfile(DraManager dra, ClaimWriter writer, Parallelizer p) {
    return Profiles.defaultProfile(
        "default-scheduler",
        FeatureGates.defaults(),
        DynamicResourcesArgs.defaults(),
        new Profiles.Dra(dra, writer, System::nanoTime),
        NO_BIND,
        p,
        name -> null);
  }
}
