package io.jdra.controllers.ttlafterfinished;

import static io.jdra.runtime.logging.Klog.kobj;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.controllers.controllerutil.ApiErrors;
import io.jdra.controllers.controllerutil.QueueController;
import io.jdra.controllers.controllerutil.QueueWorkers;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * The TTL-after-finished controller ({@code pkg/controller/ttlafterfinished}): a finished Job with
 * {@code spec.ttlSecondsAfterFinished} is deleted that many seconds after its {@code Complete} or
 * {@code Failed} condition's transition, in the foreground so that its pods go first. Handlers only
 * enqueue; a Job not due yet is queued again for when it is; the decision is made again on the Job
 * read from the API server before the deletion, which carries UID and resourceVersion
 * preconditions, so a Job changed meanwhile (TTL raised, re-created) is not deleted.
 */
public final class TtlAfterFinishedController extends QueueController {
  /** The controller's name in kube-controller-manager. */
  public static final String NAME = "ttl-after-finished-controller";

  /** Upstream's queue name. */
  public static final String QUEUE_NAME = "ttl_jobs_to_delete";

  /** Upstream's buckets: 0.1 s doubling, 14 of them. */
  static final double[] DELETION_BUCKETS = exponential(0.1, 2, 14);

  private final KubernetesClient client;
  private final Lister<Job> jobs;
  private final Clock clock;
  private final Histogram deletionDuration;

  TtlAfterFinishedController(
      KubernetesClient client,
      Lister<Job> jobs,
      RateLimitingQueue<String> queue,
      Clock clock,
      PrometheusRegistry registry,
      BooleanSupplier synced) {
    super(QUEUE_NAME, queue, synced);
    this.client = client;
    this.jobs = jobs;
    this.clock = clock;
    this.deletionDuration =
        Histogram.builder()
            .name("ttl_after_finished_controller_job_deletion_duration_seconds")
            .help("The time it took to delete the job since it became eligible for deletion")
            .classicUpperBounds(DELETION_BUCKETS)
            .classicOnly()
            .register(registry);
  }

  /** Wires the controller to the shared Job informer; call before the factory starts. */
  public static TtlAfterFinishedController create(
      Ctx ctx,
      KubernetesClient client,
      InformerFactory informers,
      PrometheusRegistry registry,
      WorkQueueMetrics queueMetrics) {
    SharedIndexInformer<Job> informer = informers.informer(Job.class);
    TtlAfterFinishedController c =
        new TtlAfterFinishedController(
            client,
            Lister.of(informer),
            defaultQueue(ctx, QUEUE_NAME, queueMetrics),
            ctx.clock(),
            registry,
            informer::hasSynced);
    Handlers.add(
        ctx,
        informer,
        new ResourceEventHandler<Job>() {
          @Override
          public void onAdd(Job job) {
            c.enqueueIfNeeded(ctx, job);
          }

          @Override
          public void onUpdate(Job old, Job cur) {
            c.enqueueIfNeeded(ctx, cur);
          }

          @Override
          public void onDelete(Job job, boolean finalStateUnknown) {}
        });
    return c;
  }

  void enqueueIfNeeded(Ctx ctx, Job job) {
    if (job.getMetadata().getDeletionTimestamp() == null && needsCleanup(job)) {
      ctx.logger().v(4).info("Adding job to cleanup", "job", kobj(job));
      queue.add(key(job));
    }
  }

  /** Upstream's {@code processJob}: checks the cached Job, then the live one, then deletes. */
  @Override
  protected void syncHandler(Ctx ctx, String key) {
    String[] nsName = QueueWorkers.splitKey(key);
    Job cached = jobs.get(nsName[0], nsName[1]).orElse(null);
    if (cached == null || processTtl(ctx, cached) == null) {
      return;
    }
    // The cache may lag: decide again on the Job as the API server has it now.
    Job fresh = client.batch().v1().jobs().inNamespace(nsName[0]).withName(nsName[1]).get();
    if (fresh == null) {
      return;
    }
    Instant expiredAt = processTtl(ctx, fresh);
    if (expiredAt == null) {
      return;
    }
    ctx.logger().v(4).info("Cleaning up Job", "job", kobj(fresh));
    delete(fresh);
    deletionDuration.observe(Math.max(0, Duration.between(expiredAt, clock.now()).toNanos() / 1e9));
  }

  private void delete(Job job) {
    String url =
        client.getMasterUrl().toString().replaceAll("/+$", "")
            + "/apis/batch/v1/namespaces/"
            + URLEncoder.encode(job.getMetadata().getNamespace(), StandardCharsets.UTF_8)
            + "/jobs/"
            + URLEncoder.encode(job.getMetadata().getName(), StandardCharsets.UTF_8);
    try {
      client.raw(
          url,
          "DELETE",
          new DeleteOptionsBuilder()
              .withApiVersion("v1")
              .withKind("DeleteOptions")
              .withPropagationPolicy("Foreground")
              .withNewPreconditions()
              .withUid(job.getMetadata().getUid())
              .withResourceVersion(job.getMetadata().getResourceVersion())
              .endPreconditions()
              .build());
    } catch (RuntimeException e) {
      if (!ApiErrors.isNotFound(e)) {
        throw e;
      }
    }
  }

  /**
   * Upstream's {@code processTTL}: the time the Job's TTL expired, or null when it needs no cleanup
   * or is not due yet (then its key is queued again for when it is).
   */
  Instant processTtl(Ctx ctx, Job job) {
    if (job.getMetadata().getDeletionTimestamp() != null || !needsCleanup(job)) {
      return null;
    }
    Instant now = clock.now();
    Instant finishAt = finishTime(job);
    if (finishAt == null) {
      ctx.logger().info("Finished Job has no finish time", "job", kobj(job));
      return null;
    }
    Instant expireAt = finishAt.plusSeconds(job.getSpec().getTtlSecondsAfterFinished());
    if (finishAt.isAfter(now)) {
      ctx.logger()
          .info(
              "Found Job finished in the future. This is likely due to time skew in the cluster."
                  + " Job cleanup will be deferred.",
              "job",
              kobj(job));
    }
    Duration left = Duration.between(now, expireAt);
    if (left.isNegative() || left.isZero()) {
      return expireAt;
    }
    queue.addAfter(key(job), left);
    return null;
  }

  /** Upstream's {@code needsCleanup}: a TTL is set and the Job finished. */
  static boolean needsCleanup(Job job) {
    return job.getSpec().getTtlSecondsAfterFinished() != null && finished(job) != null;
  }

  private static JobCondition finished(Job job) {
    if (job.getStatus() == null) {
      return null;
    }
    for (JobCondition c : job.getStatus().getConditions()) {
      if (("Complete".equals(c.getType()) || "Failed".equals(c.getType()))
          && "True".equals(c.getStatus())) {
        return c;
      }
    }
    return null;
  }

  /** The finished condition's transition time. */
  static Instant finishTime(Job job) {
    JobCondition c = finished(job);
    if (c == null || c.getLastTransitionTime() == null || c.getLastTransitionTime().isEmpty()) {
      return null;
    }
    return Instant.parse(c.getLastTransitionTime());
  }

  private static double[] exponential(double start, double factor, int count) {
    double[] b = new double[count];
    for (int i = 0; i < count; i++) {
      b[i] = start * Math.pow(factor, i);
    }
    return b;
  }
}
