package io.jdra.controllers.job;

import static io.jdra.runtime.logging.Klog.kobj;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.controllers.controllerutil.ControllerExpectations;
import io.jdra.controllers.controllerutil.LabelSelectors;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.PodControl;
import io.jdra.controllers.controllerutil.PodUtil;
import io.jdra.controllers.controllerutil.QueueController;
import io.jdra.controllers.controllerutil.QueueWorkers;
import io.jdra.controllers.controllerutil.RealPodControl;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.logging.Logger;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.RateLimiters;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.jdra.runtime.workqueue.WorkQueues;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The Job controller ({@code pkg/controller/job/job_controller.go}) for {@code NonIndexed} and
 * {@code Indexed} Jobs: runs up to {@code parallelism} pods until {@code completions} succeeded,
 * replaces failed pods with backoff until {@code backoffLimit} is exceeded, applies {@code
 * podFailurePolicy} and {@code activeDeadlineSeconds}, and counts finished pods exactly once
 * through the {@code batch.kubernetes.io/job-tracking} finalizer and {@code
 * status.uncountedTerminatedPods}. Jobs whose {@code spec.managedBy} names another controller are
 * left alone.
 *
 * <p>Handlers only resolve owners, record expectations and enqueue: Job events at once, pod events
 * after {@link #SYNC_JOB_BATCH_PERIOD} so bursts of pod updates make one sync, as upstream. Pods
 * that keep the tracking finalizer with no Job left to count them (orphaned, their Job deleted or
 * finished) go to a second queue, {@code job_orphan_pod}, whose one worker removes the finalizer
 * ({@link OrphanPods}). Both queues back off per key from 1 s to 1 min, as upstream's.
 */
public final class JobController extends QueueController {
  /** The controller's name in kube-controller-manager, also its logger's and events' source. */
  public static final String NAME = "job-controller";

  /** Upstream's queue name. */
  public static final String QUEUE_NAME = "job";

  /** Upstream's name of the queue of orphan pods that still have the tracking finalizer. */
  public static final String ORPHAN_QUEUE_NAME = "job_orphan_pod";

  /** Upstream's {@code syncJobBatchPeriod}. */
  public static final Duration SYNC_JOB_BATCH_PERIOD = Duration.ofSeconds(1);

  /** Upstream's {@code DefaultJobApiBackOff} and {@code MaxJobApiBackOff}, for both queues. */
  static final Duration DEFAULT_JOB_API_BACKOFF = Duration.ofSeconds(1);

  static final Duration MAX_JOB_API_BACKOFF = Duration.ofMinutes(1);

  /**
   * {@code spec.managedBy} of Jobs this controller manages (upstream's {@code JobControllerName}).
   */
  static final String JOB_CONTROLLER_NAME = "kubernetes.io/job-controller";

  private final Deps deps;
  private final RateLimitingQueue<String> orphanQueue;

  /** What a sync reads and writes through. Immutable; every part is thread-safe. */
  record Deps(
      KubernetesClient client,
      Lister<Job> jobLister,
      Lister<Pod> podLister,
      ControllerExpectations expectations,
      FinalizerExpectations finalizerExpectations,
      PodControl podControl,
      EventRecorder recorder,
      BackoffStore backoff,
      JobMetrics metrics,
      Clock clock) {}

  JobController(
      Deps deps,
      RateLimitingQueue<String> queue,
      RateLimitingQueue<String> orphanQueue,
      BooleanSupplier synced) {
    super(QUEUE_NAME, queue, synced);
    this.deps = deps;
    this.orphanQueue = orphanQueue;
  }

  /** Wires the controller to the shared informers; call before the factory starts. */
  public static JobController create(
      Ctx ctx,
      KubernetesClient client,
      InformerFactory informers,
      EventRecorder recorder,
      PrometheusRegistry registry,
      WorkQueueMetrics queueMetrics) {
    SharedIndexInformer<Job> jobs = informers.informer(Job.class);
    SharedIndexInformer<Pod> pods = informers.informer(Pod.class);
    Deps deps =
        new Deps(
            client,
            Lister.of(jobs),
            Lister.of(pods),
            new ControllerExpectations(ctx.clock()),
            new FinalizerExpectations(),
            new RealPodControl(client, recorder),
            recorder,
            new BackoffStore(),
            JobMetrics.create(registry),
            ctx.clock());
    JobController c =
        new JobController(
            deps,
            jobApiQueue(ctx, QUEUE_NAME, queueMetrics),
            jobApiQueue(ctx, ORPHAN_QUEUE_NAME, queueMetrics),
            allSynced(jobs, pods));
    c.addHandlers(ctx, jobs, pods);
    return c;
  }

  /** Upstream's queues: per-key exponential backoff only, 1 s doubling up to 1 min. */
  private static RateLimitingQueue<String> jobApiQueue(
      Ctx ctx, String name, WorkQueueMetrics queueMetrics) {
    return WorkQueues.rateLimiting(
        name,
        RateLimiters.exponential(DEFAULT_JOB_API_BACKOFF, MAX_JOB_API_BACKOFF),
        ctx.clock(),
        queueMetrics);
  }

  private void addHandlers(Ctx ctx, SharedIndexInformer<Job> jobs, SharedIndexInformer<Pod> pods) {
    Logger log = ctx.logger();
    Handlers.add(
        ctx,
        jobs,
        new ResourceEventHandler<Job>() {
          @Override
          public void onAdd(Job job) {
            log.v(4).info("Adding job", "job", kobj(job));
            addJob(job);
          }

          @Override
          public void onUpdate(Job old, Job cur) {
            updateJob(old, cur);
          }

          @Override
          public void onDelete(Job job, boolean finalStateUnknown) {
            deleteJob(job);
          }
        });
    Handlers.add(
        ctx,
        pods,
        new ResourceEventHandler<Pod>() {
          @Override
          public void onAdd(Pod pod) {
            addPod(pod);
          }

          @Override
          public void onUpdate(Pod old, Pod cur) {
            updatePod(old, cur);
          }

          @Override
          public void onDelete(Pod pod, boolean finalStateUnknown) {
            deletePod(pod, true);
          }
        });
  }

  /** Runs the Job workers and the one orphan pod worker until {@code ctx} is cancelled. */
  @Override
  public void run(Ctx ctx, int workers) throws InterruptedException {
    Thread orphanWorker =
        Thread.ofPlatform()
            .name(NAME + "-orphan")
            .start(() -> {
              try {
                QueueWorkers.run(
                    ctx,
                    NAME + "-orphan-worker",
                    orphanQueue,
                    1,
                    this::hasSynced,
                    this::syncOrphan);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    try {
      super.run(ctx, workers);
    } finally {
      orphanWorker.join();
    }
  }

  @Override
  protected void syncHandler(Ctx ctx, String key) {
    new SyncJob(deps, queue, ctx, key).sync();
  }

  /** One key of the orphan queue ({@code ns/name} of a pod). */
  void syncOrphan(Ctx ctx, String key) {
    new OrphanPods(deps, this::resolveControllerRef).syncOrphanPod(ctx, key);
  }

  void addJob(Job job) {
    queue.add(key(job));
    String controller = managedByExternalController(job);
    if (controller != null) {
      deps.metrics().byExternalController.labelValues(controller).inc();
    }
  }

  /**
   * Upstream's {@code updateJob}: a spec change (new generation) syncs at once; a status change,
   * mostly this controller's own write, is batched like pod events, so the sync after a write does
   * not start while the informers still deliver what that write caused. A finished Job's pods that
   * still have the finalizer go to the orphan queue (a backup: none should), and a changed {@code
   * activeDeadlineSeconds} schedules a sync when it passes.
   */
  void updateJob(Job old, Job cur) {
    if (Objects.equals(old.getMetadata().getGeneration(), cur.getMetadata().getGeneration())) {
      enqueueBatched(cur);
    } else {
      queue.add(key(cur));
    }
    if (JobUtil.isFinished(cur)) {
      cleanupPodFinalizers(cur);
    }
    Long curAds = cur.getSpec().getActiveDeadlineSeconds();
    String start = cur.getStatus() == null ? null : cur.getStatus().getStartTime();
    if (start != null
        && curAds != null
        && !curAds.equals(old.getSpec().getActiveDeadlineSeconds())) {
      Duration passed = Duration.between(PodUtil.time(start), deps.clock().now());
      queue.addAfter(key(cur), Duration.ofSeconds(curAds).minus(passed));
    }
  }

  /** Upstream's {@code deleteJob}: sync (to forget the Job) and release its pods' finalizers. */
  void deleteJob(Job job) {
    deps.expectations().deleteExpectations(key(job));
    queue.add(key(job));
    cleanupPodFinalizers(job);
  }

  /** The external controller named by {@code spec.managedBy}, or null if it is this one. */
  static String managedByExternalController(Job job) {
    String managedBy = job.getSpec() == null ? null : job.getSpec().getManagedBy();
    return managedBy == null || managedBy.equals(JOB_CONTROLLER_NAME) ? null : managedBy;
  }

  /** Upstream's {@code cleanupPodFinalizers}: the Job's pods with the finalizer, to the queue. */
  private void cleanupPodFinalizers(Job job) {
    String uid = job.getMetadata().getUid();
    for (Pod pod : deps.podLister().list(job.getMetadata().getNamespace())) {
      OwnerReference ref = OwnerRefs.controllerOf(pod);
      if (ref != null
          && uid.equals(ref.getUid())
          && LabelSelectors.matches(job.getSpec().getSelector(), pod.getMetadata().getLabels())
          && JobUtil.hasTrackingFinalizer(pod)) {
        enqueueOrphanPod(pod);
      }
    }
  }

  private void enqueueOrphanPod(Pod pod) {
    orphanQueue.add(PodUtil.key(pod));
  }

  static String key(Job job) {
    return QueueController.key(job);
  }

  Job resolveControllerRef(String namespace, OwnerReference ref) {
    if (!"Job".equals(ref.getKind()) || !ref.getApiVersion().startsWith("batch/")) {
      return null;
    }
    Job job = deps.jobLister().get(namespace, ref.getName()).orElse(null);
    return job != null && job.getMetadata().getUid().equals(ref.getUid()) ? job : null;
  }

  private void enqueueBatched(Job job) {
    queue.addAfter(key(job), SYNC_JOB_BATCH_PERIOD);
  }

  void addPod(Pod pod) {
    deps.metrics().recordFinishedPodWithTrackingFinalizer(null, pod);
    if (PodUtil.isTerminating(pod)) {
      deletePod(pod, false);
      return;
    }
    OwnerReference ref = OwnerRefs.controllerOf(pod);
    if (ref != null) {
      Job job = resolveControllerRef(pod.getMetadata().getNamespace(), ref);
      if (job != null) {
        deps.expectations().creationObserved(key(job));
        enqueueBatched(job);
      }
      return;
    }
    if (JobUtil.hasTrackingFinalizer(pod)) {
      enqueueOrphanPod(pod);
    }
    enqueueMatchingJobs(pod);
  }

  /** Jobs whose selector matches an orphan, so one may adopt it. */
  private void enqueueMatchingJobs(Pod pod) {
    for (Job job : deps.jobLister().list(pod.getMetadata().getNamespace())) {
      if (LabelSelectors.matches(job.getSpec().getSelector(), pod.getMetadata().getLabels())) {
        enqueueBatched(job);
      }
    }
  }

  void updatePod(Pod old, Pod cur) {
    deps.metrics().recordFinishedPodWithTrackingFinalizer(old, cur);
    if (Objects.equals(
        old.getMetadata().getResourceVersion(), cur.getMetadata().getResourceVersion())) {
      return;
    }
    if (PodUtil.isTerminating(cur)) {
      deletePod(cur, false);
      return;
    }
    // The finalizer may have been added and removed again for a new owner, all in one event:
    // only the current state counts.
    boolean finalizerRemoved = !JobUtil.hasTrackingFinalizer(cur);
    OwnerReference curRef = OwnerRefs.controllerOf(cur);
    OwnerReference oldRef = OwnerRefs.controllerOf(old);
    boolean refChanged = !Objects.equals(curRef, oldRef);
    if (refChanged && oldRef != null) {
      Job oldJob = resolveControllerRef(old.getMetadata().getNamespace(), oldRef);
      if (oldJob != null) {
        observeFinalizerRemoval(oldJob, cur, finalizerRemoved);
        enqueueBatched(oldJob);
      }
    }
    if (curRef != null) {
      Job job = resolveControllerRef(cur.getMetadata().getNamespace(), curRef);
      if (job != null) {
        observeFinalizerRemoval(job, cur, finalizerRemoved);
        enqueueBatched(job);
      }
      return;
    }
    if (JobUtil.hasTrackingFinalizer(cur)) {
      enqueueOrphanPod(cur);
    }
    if (refChanged
        || !Objects.equals(old.getMetadata().getLabels(), cur.getMetadata().getLabels())) {
      enqueueMatchingJobs(cur);
    }
  }

  private void observeFinalizerRemoval(Job job, Pod pod, boolean removed) {
    if (removed) {
      deps.finalizerExpectations().observed(key(job), pod.getMetadata().getUid());
    }
  }

  void deletePod(Pod pod, boolean finalState) {
    if (finalState) {
      deps.metrics().recordFinishedPodWithTrackingFinalizer(pod, null);
    }
    boolean hasFinalizer = JobUtil.hasTrackingFinalizer(pod);
    OwnerReference ref = OwnerRefs.controllerOf(pod);
    if (ref == null) {
      // The GC may have removed the reference of a pod that belonged to a Job.
      if (hasFinalizer) {
        enqueueOrphanPod(pod);
      }
      return;
    }
    Job job = resolveControllerRef(pod.getMetadata().getNamespace(), ref);
    if (job == null || JobUtil.isFinished(job)) {
      // No sync will remove this finalizer.
      if (hasFinalizer) {
        enqueueOrphanPod(pod);
      }
      return;
    }
    String k = key(job);
    deps.expectations().deletionObserved(k, PodUtil.key(pod));
    if (finalState || !hasFinalizer) {
      deps.finalizerExpectations().observed(k, pod.getMetadata().getUid());
    }
    enqueueBatched(job);
  }
}
