package io.jdra.controllers.manager;

import io.jdra.controllers.resourceclaim.ResourceClaimController;

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
}
