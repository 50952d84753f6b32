package io.jdra.controllers.manager;

import io.jdra.controllers.devicetainteviction.DeviceTaintEvictionController;
import io.jdra.controllers.resourceclaim.ResourceClaimController;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.EventRecorderOptions;

/** The factories of the built-in controllers (upstream's new*ControllerDescriptor functions). */
final class ControllerFactories {
  private ControllerFactories() {}

  /** Upstream's event source component for this controller. */
  static final String RESOURCE_CLAIM_EVENT_COMPONENT = "resource_claim";

  static Controller resourceClaim(ControllerContext cc) {
    EventRecorder recorder =
        EventRecorder.create(
            cc.client(),
            new EventRecorderOptions(RESOURCE_CLAIM_EVENT_COMPONENT, reportingInstance()),
            cc.ctx());
    ResourceClaimController c =
        ResourceClaimController.create(
            cc.ctx(),
            cc.client(),
            cc.informers(),
            recorder,
            cc.registry(),
            cc.queueMetrics(),
            cc.featureGates());
    int workers = cc.options().concurrentResourceClaimSyncs();
    return ctx -> {
      try {
        c.run(ctx, workers);
      } finally {
        recorder.close();
      }
    };
  }

  static Controller deviceTaintEviction(ControllerContext cc) {
    DeviceTaintEvictionController c =
        DeviceTaintEvictionController.create(
            cc.informers(),
            cc.featureGates(),
            new DeviceTaintEvictionController.Options(
                DeviceTaintEvictionController.NAME,
                cc.options().concurrentDeviceTaintEvictionSyncs()),
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
