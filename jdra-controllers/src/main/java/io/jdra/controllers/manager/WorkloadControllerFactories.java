package io.jdra.controllers.manager;

import io.jdra.controllers.controllerutil.QueueController;
import io.jdra.controllers.deployment.DeploymentController;
import io.jdra.controllers.job.JobController;
import io.jdra.controllers.replicaset.ReplicaSetController;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.EventRecorderOptions;
import java.util.List;

/**
 * The workload controllers' descriptors and factories (upstream's {@code
 * newReplicaSetControllerDescriptor}, {@code newDeploymentControllerDescriptor}, {@code
 * newJobControllerDescriptor}), apart from {@link ControllerFactories} so each group changes alone.
 * They need no feature gate.
 */
final class WorkloadControllerFactories {
  private WorkloadControllerFactories() {}

  static List<ControllerDescriptor> descriptors() {
    return List.of(
        new ControllerDescriptor(
            ReplicaSetController.NAME,
            List.of("replicaset"),
            List.of(),
            WorkloadControllerFactories::replicaSet),
        new ControllerDescriptor(
            DeploymentController.NAME,
            List.of("deployment"),
            List.of(),
            WorkloadControllerFactories::deployment),
        new ControllerDescriptor(
            JobController.NAME, List.of("job"), List.of(), WorkloadControllerFactories::job));
  }

  static Controller job(ControllerContext cc) {
    return withRecorder(
        cc,
        JobController.NAME,
        cc.options().workloadSyncs().job(),
        r ->
            JobController.create(
                cc.ctx(), cc.client(), cc.informers(), r, cc.registry(), cc.queueMetrics()));
  }

  static Controller deployment(ControllerContext cc) {
    return withRecorder(
        cc,
        DeploymentController.NAME,
        cc.options().workloadSyncs().deployment(),
        r ->
            DeploymentController.create(
                cc.ctx(), cc.client(), cc.informers(), r, cc.queueMetrics()));
  }

  static Controller replicaSet(ControllerContext cc) {
    return withRecorder(
        cc,
        ReplicaSetController.NAME,
        cc.options().workloadSyncs().replicaSet(),
        r ->
            ReplicaSetController.create(
                cc.ctx(), cc.client(), cc.informers(), r, cc.queueMetrics()));
  }

  /**
   * A controller with its own event recorder (source component {@code name}), closed when the
   * controller has stopped, running {@code workers} workers.
   */
  private static Controller withRecorder(
      ControllerContext cc,
      String name,
      int workers,
      java.util.function.Function<EventRecorder, QueueController> create) {
    EventRecorder recorder = recorder(cc, name);
    QueueController c = create.apply(recorder);
    return ctx -> {
      try {
        c.run(ctx, workers);
      } finally {
        recorder.close();
      }
    };
  }

  private static EventRecorder recorder(ControllerContext cc, String component) {
    return EventRecorder.create(
        cc.client(),
        new EventRecorderOptions(component, ControllerFactories.reportingInstance()),
        cc.ctx());
  }
}
