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
import io.jdra.controllers.controllerutil.RealPodControl;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.logging.Logger;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The Job controller ({@code pkg/controller/job/job_controller.go}) for {@code NonIndexed} Jobs:
 * runs up to {@code parallelism} pods until {@code completions} succeeded, replaces failed pods
 * with backoff until {@code backoffLimit} is exceeded, applies {@code podFailurePolicy} and {@code
 * activeDeadlineSeconds}, and counts finished pods exactly once through the {@code
 * batch.kubernetes.io/job-tracking} finalizer and {@code status.uncountedTerminatedPods}.
 *
 * <p>Handlers only resolve owners, record expectations and enqueue: Job events at once, pod events
 * after {@link #SYNC_JOB_BATCH_PERIOD} so bursts of pod updates make one sync, as upstream.
 */
public final class JobController extends QueueController {
  /** The controller's name in kube-controller-manager, also its logger's and events' source. */
  public static final String NAME = "job-controller";

  /** Upstream's queue name. */
  public static final String QUEUE_NAME = "job";

  /** Upstream's {@code syncJobBatchPeriod}. */
  public static final Duration SYNC_JOB_BATCH_PERIOD = Duration.ofSeconds(1);

  private final Deps deps;

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
      Clock clock) {}

  JobController(Deps deps, RateLimitingQueue<String> queue, BooleanSupplier synced) {
    super(QUEUE_NAME, queue, synced);
    this.deps = deps;
  }

  /** Wires the controller to the shared informers; call before the factory starts. */
  public static JobController create(
      Ctx ctx,
      KubernetesClient client,
      InformerFactory informers,
      EventRecorder recorder,
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
            ctx.clock());
    JobController c =
        new JobController(deps, defaultQueue(ctx, QUEUE_NAME, queueMetrics), allSynced(jobs, pods));
    c.addHandlers(ctx, jobs, pods);
    return c;
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
            queue.add(key(job));
          }

          @Override
          public void onUpdate(Job old, Job cur) {
            updateJob(old, cur);
          }

          @Override
          public void onDelete(Job job, boolean finalStateUnknown) {
            deps.expectations().deleteExpectations(key(job));
            queue.add(key(job));
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

  @Override
  protected void syncHandler(Ctx ctx, String key) {
    new SyncJob(deps, queue, ctx, key).sync();
  }

  /**
   * Upstream's {@code updateJob}: a spec change (new generation) syncs at once; a status change,
   * mostly this controller's own write, is batched like pod events, so the sync after a write does
   * not start while the informers still deliver what that write caused.
   */
  void updateJob(Job old, Job cur) {
    if (Objects.equals(old.getMetadata().getGeneration(), cur.getMetadata().getGeneration())) {
      enqueueBatched(cur);
    } else {
      queue.add(key(cur));
    }
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
    for (Job job : deps.jobLister().list(pod.getMetadata().getNamespace())) {
      if (LabelSelectors.matches(job.getSpec().getSelector(), pod.getMetadata().getLabels())) {
        enqueueBatched(job);
      }
    }
  }

  void updatePod(Pod old, Pod cur) {
    if (Objects.equals(
        old.getMetadata().getResourceVersion(), cur.getMetadata().getResourceVersion())) {
      return;
    }
    if (PodUtil.isTerminating(cur)) {
      deletePod(cur, false);
      return;
    }
    OwnerReference curRef = OwnerRefs.controllerOf(cur);
    OwnerReference oldRef = OwnerRefs.controllerOf(old);
    if (!Objects.equals(curRef, oldRef) && oldRef != null) {
      Job oldJob = resolveControllerRef(old.getMetadata().getNamespace(), oldRef);
      if (oldJob != null) {
        enqueueBatched(oldJob);
      }
    }
    if (curRef != null) {
      Job job = resolveControllerRef(cur.getMetadata().getNamespace(), curRef);
      if (job != null) {
        if (!JobUtil.hasTrackingFinalizer(cur)) {
          deps.finalizerExpectations().observed(key(job), cur.getMetadata().getUid());
        }
        enqueueBatched(job);
      }
      return;
    }
    addPod(cur);
  }

  void deletePod(Pod pod, boolean finalState) {
    OwnerReference ref = OwnerRefs.controllerOf(pod);
    if (ref == null) {
      return;
    }
    Job job = resolveControllerRef(pod.getMetadata().getNamespace(), ref);
    if (job == null) {
      return;
    }
    String k = key(job);
    deps.expectations().deletionObserved(k, PodUtil.key(pod));
    if (finalState || !JobUtil.hasTrackingFinalizer(pod)) {
      deps.finalizerExpectations().observed(k, pod.getMetadata().getUid());
    }
    enqueueBatched(job);
  }

  /**
   * The pods whose tracking finalizer this controller removed and whose update the informer has not
   * shown yet (upstream's {@code finalizerExpectations}): counted as without finalizer, so a
   * lagging cache never counts a finished pod twice. Thread-safe.
   */
  static final class FinalizerExpectations {
    private final Map<String, Set<String>> pending = new HashMap<>();

    synchronized void expectRemoved(String jobKey, String uid) {
      pending.computeIfAbsent(jobKey, k -> new HashSet<>()).add(uid);
    }

    synchronized void observed(String jobKey, String uid) {
      Set<String> s = pending.get(jobKey);
      if (s != null && s.remove(uid) && s.isEmpty()) {
        pending.remove(jobKey);
      }
    }

    /** A copy of the UIDs expected for the Job (upstream's {@code getExpectedUIDs}). */
    synchronized Set<String> expectedUids(String jobKey) {
      Set<String> s = pending.get(jobKey);
      return s == null ? Set.of() : Set.copyOf(s);
    }

    synchronized void forget(String jobKey) {
      pending.remove(jobKey);
    }
  }
}
