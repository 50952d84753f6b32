package io.jdra.controllers.job;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Objects;

/**
 * The Job controller's metrics, upstream's {@code pkg/controller/job/metrics} (subsystem {@code
 * job_controller}): names, labels, buckets and help texts (with component-base's stability prefix)
 * as Kubernetes 1.36 registers them. Created per controller instance on an injected registry, so
 * parallel tests and several managers do not share counters. Thread-safe.
 *
 * <p>Of upstream's metrics, {@code job_finished_indexes_total} only ever gets {@code
 * backoffLimit="global"}: this controller has no {@code backoffLimitPerIndex}.
 */
public final class JobMetrics {
  /** Values of {@code completion_mode}. */
  static final String NON_INDEXED = "NonIndexed";

  static final String INDEXED = "Indexed";

  /** Expectations unsatisfied or the Job finishing: manageJob was not called. */
  static final String ACTION_RECONCILING = "reconciling";

  /** manageJob created and deleted nothing. */
  static final String ACTION_TRACKING = "tracking";

  static final String ACTION_PODS_CREATED = "pods_created";
  static final String ACTION_PODS_DELETED = "pods_deleted";

  /** Values of {@code result} (finished Jobs and pods) and {@code status} (creations, indexes). */
  static final String SUCCEEDED = "succeeded";

  static final String FAILED = "failed";

  /** Values of {@code event} of {@code terminated_pods_tracking_finalizer_total}. */
  static final String ADD = "add";

  static final String DELETE = "delete";

  /** Values of {@code reason} of {@code job_pods_creation_total}. */
  static final String POD_CREATE_NEW = "new";

  static final String POD_RECREATE_TERMINATING_OR_FAILED = "recreate_terminating_or_failed";
  static final String POD_RECREATE_FAILED = "recreate_failed";

  /** Upstream's {@code ExponentialBuckets(0.004, 2, 15)}: 4 ms to about 65 s. */
  static final double[] SYNC_DURATION_BUCKETS = exponentialBuckets(0.004, 2, 15);

  final Histogram syncDuration;
  final Counter syncs;
  final Counter jobsFinished;
  final Counter byExternalController;
  final Counter podsFinished;
  final Counter podFailuresHandledByFailurePolicy;
  final Counter terminatedPodsTrackingFinalizer;
  final Counter finishedIndexes;
  final Counter podsCreation;

  private JobMetrics(PrometheusRegistry r) {
    syncDuration =
        Histogram.builder()
            .name("job_controller_job_sync_duration_seconds")
            .help("[STABLE] The time it took to sync a job")
            .labelNames("completion_mode", "result", "action")
            .classicUpperBounds(SYNC_DURATION_BUCKETS)
            .classicOnly()
            .register(r);
    syncs =
        counter(r, "job_syncs_total", "[STABLE] The number of job syncs")
            .labelNames("completion_mode", "result", "action")
            .register(r);
    jobsFinished =
        counter(r, "jobs_finished_total", "[STABLE] The number of finished jobs")
            .labelNames("completion_mode", "result", "reason")
            .register(r);
    byExternalController =
        counter(
                r,
                "jobs_by_external_controller_total",
                "[ALPHA] The number of Jobs managed by an external controller")
            .labelNames("controller_name")
            .register(r);
    podsFinished =
        counter(
                r,
                "job_pods_finished_total",
                "[STABLE] The number of finished Pods that are fully tracked")
            .labelNames("completion_mode", "result")
            .register(r);
    podFailuresHandledByFailurePolicy =
        counter(
                r,
                "pod_failures_handled_by_failure_policy_total",
                "[BETA] The number of failed Pods handled by failure policy with respect to the"
                    + " failure policy action applied based on the matched rule. Possible values"
                    + " of the action label correspond to the possible values for the failure"
                    + " policy rule action, which are: \"FailJob\", \"Ignore\" and \"Count\".")
            .labelNames("action")
            .register(r);
    terminatedPodsTrackingFinalizer =
        counter(
                r,
                "terminated_pods_tracking_finalizer_total",
                "[BETA] The number of terminated pods (phase=Failed|Succeeded) that have the"
                    + " finalizer batch.kubernetes.io/job-tracking. The event label can be \"add\""
                    + " or \"delete\".")
            .labelNames("event")
            .register(r);
    finishedIndexes =
        counter(
                r,
                "job_finished_indexes_total",
                // Upstream's help is a raw string spanning lines, indentation included.
                "[ALPHA] The number of finished indexes. Possible values for the\n"
                    + "\t\t\tstatus label are: \"succeeded\", \"failed\". Possible values for the\n"
                    + "\t\t\tbackoffLimit label are: \"perIndex\" and \"global\"")
            .labelNames("status", "backoffLimit")
            .register(r);
    podsCreation =
        counter(
                r,
                "job_pods_creation_total",
                "[ALPHA] The number of Pods created by the Job controller labelled with a reason"
                    + " for the Pod creation.\n"
                    + "This metric also distinguishes between Pods created using different"
                    + " PodReplacementPolicy settings.\n"
                    + "Possible values of the \"reason\" label are:\n"
                    + "\"new\", \"recreate_terminating_or_failed\", \"recreate_failed\".\n"
                    + "Possible values of the \"status\" label are:\n"
                    + "\"succeeded\", \"failed\".")
            .labelNames("reason", "status")
            .register(r);
  }

  /** Creates and registers the metrics on {@code registry}. */
  public static JobMetrics create(PrometheusRegistry registry) {
    return new JobMetrics(registry);
  }

  private static Counter.Builder counter(PrometheusRegistry r, String name, String help) {
    return Counter.builder().name("job_controller_" + name).help(help);
  }

  static double[] exponentialBuckets(double start, double factor, int count) {
    double[] b = new double[count];
    for (int i = 0; i < count; i++) {
      b[i] = start * Math.pow(factor, i);
    }
    return b;
  }

  /** One sync of a Job; {@code seconds} on the controller's clock. */
  void recordSync(String completionMode, boolean success, String action, double seconds) {
    String result = success ? "success" : "error";
    syncDuration.labelValues(completionMode, result, action).observe(seconds);
    syncs.labelValues(completionMode, result, action).inc();
  }

  /**
   * Upstream's {@code recordFinishedPodWithTrackingFinalizer}: counts a pod becoming, or ceasing to
   * be, a terminated pod that still has the tracking finalizer ({@code null} for no object).
   */
  void recordFinishedPodWithTrackingFinalizer(Pod old, Pod cur) {
    boolean was = isFinishedWithTrackingFinalizer(old);
    boolean is = isFinishedWithTrackingFinalizer(cur);
    if (was != is) {
      terminatedPodsTrackingFinalizer.labelValues(is ? ADD : DELETE).inc();
    }
  }

  private static boolean isFinishedWithTrackingFinalizer(Pod p) {
    if (p == null || !JobUtil.hasTrackingFinalizer(p)) {
      return false;
    }
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    return "Failed".equals(phase) || "Succeeded".equals(phase);
  }

  /** The status counters {@code job_pods_finished_total} reports the growth of. */
  record Counters(int succeeded, int failed, String completedIndexes) {
    static Counters of(Job job) {
      var st = job.getStatus();
      return new Counters(
          JobUtil.nz(st.getSucceeded()), JobUtil.nz(st.getFailed()), st.getCompletedIndexes());
    }
  }

  /**
   * Upstream's {@code recordJobPodFinished}, after a status write: the pods it counted. An Indexed
   * Job counts succeeded indexes below {@code completions} (the Job may have been scaled down), and
   * reports them as finished indexes too.
   */
  void recordJobPodFinished(Job job, Counters old) {
    String mode = SyncJob.completionMode(job);
    Counters now = Counters.of(job);
    int diff;
    if (IndexedJobUtil.isIndexed(job)) {
      int completions = job.getSpec().getCompletions();
      diff = 0;
      if (!Objects.equals(now.completedIndexes(), old.completedIndexes())) {
        diff =
            indexesCount(now.completedIndexes(), completions)
                - indexesCount(old.completedIndexes(), completions);
      }
      finishedIndexes.labelValues(SUCCEEDED, "global").inc(Math.max(0, diff));
    } else {
      diff = now.succeeded() - old.succeeded();
    }
    podsFinished.labelValues(mode, SUCCEEDED).inc(Math.max(0, diff));
    podsFinished.labelValues(mode, FAILED).inc(Math.max(0, now.failed() - old.failed()));
  }

  private static int indexesCount(String indexes, int completions) {
    return indexes == null ? 0 : OrderedIntervals.parse(indexes, completions).total();
  }
}
