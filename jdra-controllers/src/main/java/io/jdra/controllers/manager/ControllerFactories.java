package io.jdra.controllers.manager;

import io.jdra.controllers.devicetainteviction.DeviceTaintEvictionController;
import io.jdra.controllers.resourceclaim.ResourceClaimController;
import io.jdra.runtime.logging.Logger;

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
    Logger events = cc.ctx().logger().withName("events");
    DeviceTaintEvictionController c =
        DeviceTaintEvictionController.create(
            cc.informers(),
            cc.featureGates(),
            DeviceTaintEvictionController.Options.defaults(),
            cc.ctx().clock(),
            cc.registry(),
            cc.queueMetrics(),
            (ns, name, uid, note) ->
                events
                    .v(3)
                    .info(
                        "Event",
                        "object",
                        ns + "/" + name,
                        "reason",
                        "DeviceTaintManagerEviction",
                        "note",
                        note));
    return c::run;
  }
}
