package io.jdra.controllers.manager;

import io.jdra.controllers.garbagecollector.GarbageCollector;
import io.jdra.controllers.namespace.NamespaceController;
import io.jdra.controllers.ttlafterfinished.TtlAfterFinishedController;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.EventRecorderOptions;
import java.util.List;

/**
 * The descriptors and factories of the controllers that remove objects: the garbage collector, the
 * namespace controller and the ttl-after-finished controller (upstream's {@code
 * newGarbageCollectorControllerDescriptor}, {@code newNamespaceControllerDescriptor} and {@code
 * newTTLAfterFinishedControllerDescriptor}). They need no feature gate. The API server only serves;
 * these act on what it records (owner references, the {@code orphan} and {@code foregroundDeletion}
 * finalizers, a namespace's {@code kubernetes} finalizer), as in kube-controller-manager.
 */
final class LifecycleControllerFactories {
  private LifecycleControllerFactories() {}

  static List<ControllerDescriptor> descriptors() {
    return List.of(
        new ControllerDescriptor(
            NamespaceController.NAME,
            List.of("namespace"),
            List.of(),
            LifecycleControllerFactories::namespace),
        new ControllerDescriptor(
            GarbageCollector.NAME,
            List.of("garbagecollector"),
            List.of(),
            LifecycleControllerFactories::garbageCollector),
        new ControllerDescriptor(
            TtlAfterFinishedController.NAME,
            List.of("ttl-after-finished"),
            List.of(),
            LifecycleControllerFactories::ttlAfterFinished));
  }

  static Controller ttlAfterFinished(ControllerContext cc) {
    TtlAfterFinishedController c =
        TtlAfterFinishedController.create(
            cc.ctx(), cc.client(), cc.informers(), cc.registry(), cc.queueMetrics());
    int workers = cc.options().lifecycle().concurrentTtlSyncs();
    return ctx -> c.run(ctx, workers);
  }

  static Controller namespace(ControllerContext cc) {
    LifecycleOptions o = cc.options().lifecycle();
    NamespaceController c =
        NamespaceController.create(
            cc.ctx(), cc.client(), cc.informers(), cc.queueMetrics(), o.namespace());
    return ctx -> c.run(ctx, o.concurrentNamespaceSyncs());
  }

  static Controller garbageCollector(ControllerContext cc) {
    LifecycleOptions o = cc.options().lifecycle();
    if (!o.enableGarbageCollector()) {
      return ctx -> {
        ctx.logger().info("Garbage collector is disabled by --enable-garbage-collector=false");
        ctx.done().handle((v, e) -> null).join();
      };
    }
    EventRecorder recorder =
        EventRecorder.create(
            cc.client(),
            new EventRecorderOptions(
                GarbageCollector.NAME, ControllerFactories.reportingInstance()),
            cc.ctx());
    GarbageCollector gc =
        GarbageCollector.create(
            cc.ctx(), cc.client(), cc.informers(), cc.queueMetrics(), cc.registry(), recorder);
    return ctx -> {
      try {
        gc.run(ctx, o.concurrentGcSyncs());
      } finally {
        recorder.close();
      }
    };
  }
}
