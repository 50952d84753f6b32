package io.jdra.controllers.job;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.QueueWorkers;
import io.jdra.runtime.Ctx;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BiFunction;

/**
 * Upstream's {@code syncOrphanPod}: removes the {@code batch.kubernetes.io/job-tracking} finalizer
 * from a pod no Job will count any more, so it is not kept in the API server for ever. The pod is
 * read from the informer cache and checked again, because it may have been adopted since it was
 * queued: a pod controlled by something other than a {@code batch/v1} Job keeps its finalizers (not
 * ours to touch), and so does one whose Job exists, is unfinished, or is managed by another
 * controller. Used by the one orphan worker.
 */
final class OrphanPods {
  private final JobController.Deps deps;
  private final BiFunction<String, OwnerReference, Job> resolveControllerRef;

  OrphanPods(JobController.Deps deps, BiFunction<String, OwnerReference, Job> resolve) {
    this.deps = deps;
    this.resolveControllerRef = resolve;
  }

  /** One key ({@code ns/name}) of the orphan queue; throws to have it retried with backoff. */
  void syncOrphanPod(Ctx ctx, String key) {
    Instant start = deps.clock().now();
    try {
      String[] nsName = QueueWorkers.splitKey(key);
      Pod pod = deps.podLister().get(nsName[0], nsName[1]).orElse(null);
      if (pod == null) {
        ctx.logger().v(4).info("Orphan pod has been deleted", "pod", key);
        return;
      }
      if (keepsFinalizer(ctx, key, pod)) {
        return;
      }
      JobUtil.removeTrackingFinalizer(deps.client(), pod);
    } finally {
      ctx.logger()
          .v(4)
          .info(
              "Finished syncing orphan pod",
              "pod",
              key,
              "elapsed",
              Duration.between(start, deps.clock().now()));
    }
  }

  private boolean keepsFinalizer(Ctx ctx, String key, Pod pod) {
    OwnerReference ref = OwnerRefs.controllerOf(pod);
    if (ref == null) {
      return false;
    }
    if (!"Job".equals(ref.getKind()) || !"batch/v1".equals(ref.getApiVersion())) {
      return true;
    }
    Job job = resolveControllerRef.apply(pod.getMetadata().getNamespace(), ref);
    if (job == null) {
      return false;
    }
    String controller = JobController.managedByExternalController(job);
    if (controller != null) {
      ctx.logger()
          .v(2)
          .info(
              "Skip cleanup of the job finalizer for a pod owned by a job that is managed by an"
                  + " external controller",
              "key",
              key,
              "podUID",
              pod.getMetadata().getUid(),
              "jobUID",
              job.getMetadata().getUid(),
              "controllerName",
              controller);
      return true;
    }
    // Adopted, or its Job still counts it.
    return !JobUtil.isFinished(job);
  }
}
