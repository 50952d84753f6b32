package io.jdra.controllers.manager;

import io.jdra.controllers.devicetainteviction.DeviceTaintEvictionController;
import io.jdra.controllers.resourceclaim.ResourceClaimController;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.EventRecorderOptions;

/** The factories of the built-in controllers (upstream's new*ControllerDescriptor functions). */
final class ControllerFactories {
  private ControllerFactories() {}

  static Controller resourceClaim(ControllerContext cc) {
    ResourceClaimController c =
        ResourceClaimController.create(
            cc.ctx(),
            cc.client(),
            cc.informers(),
            cc.registry(),
            cc.queueMetrics(),
            cc.featureGates());
    int workers = cc.options().concurrentResourceClaimSyncs();
    return ctx -> c.run(ctx, workers);
  }

  static Controller deviceTaintEviction(ControllerContext cc) {
    DeviceTaintEvictionController c =
        DeviceTaintEvictionController.create(
            cc.informers(),
            cc.featureGates(),
            DeviceTaintEvictionController.Options.defaults(),
            cc.ctx().clock(),
            cc.registry(),
            cc.queueMetrics());
    return ctx -> {
      // Created per run: the recorder owns a thread, which must not outlive the controller.
      try (EventRecorder recorder =
          EventRecorder.create(
              cc.client(),
              new EventRecorderOptions(DeviceTaintEvictionController.NAME, reportingInstance()),
              ctx)) {
        c.run(ctx, recorder);
      }
    };
  }

  /** Upstream reports the controller manager's host name as the instance. */
  static String reportingInstance() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "localhost";
    }
  }
}
