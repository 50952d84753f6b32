package io.jdra.controllers.manager;

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
    EventRecorder recorder = recorder(cc, JobController.NAME);
    JobController c =
        JobController.create(cc.ctx(), cc.client(), cc.informers(), recorder, cc.queueMetrics());
    int workers = cc.options().workloadSyncs().job();
    return ctx -> {
      try {
        c.run(ctx, workers);
      } finally {
        recorder.close();
      }
    };
  }

  static Controller deployment(ControllerContext cc) {
    EventRecorder recorder = recorder(cc, DeploymentController.NAME);
    DeploymentController c =
        DeploymentController.create(
            cc.ctx(), cc.client(), cc.informers(), recorder, cc.queueMetrics());
    int workers = cc.options().workloadSyncs().deployment();
    return ctx -> {
      try {
        c.run(ctx, workers);
      } finally {
        recorder.close();
      }
    };
  }

  static Controller replicaSet(ControllerContext cc) {
    EventRecorder recorder = recorder(cc, ReplicaSetController.NAME);
    ReplicaSetController c =
        ReplicaSetController.create(
            cc.ctx(), cc.client(), cc.informers(), recorder, cc.queueMetrics());
    int workers = cc.options().workloadSyncs().replicaSet();
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
