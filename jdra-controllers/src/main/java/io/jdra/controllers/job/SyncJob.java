package io.jdra.controllers.job;

import static io.jdra.controllers.job.JobUtil.nz;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.UncountedTerminatedPods;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jdra.controllers.controllerutil.ActivePodsWithRanks;
import io.jdra.controllers.controllerutil.ApiErrors;
import io.jdra.controllers.controllerutil.ControllerRefManager;
import io.jdra.controllers.controllerutil.LabelSelectors;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.PodControl;
import io.jdra.controllers.controllerutil.PodUtil;
import io.jdra.controllers.controllerutil.QueueWorkers;
import io.jdra.controllers.controllerutil.SlowStart;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * One sync of one Job (upstream's {@code syncJob}, {@code manageJob} and {@code
 * trackJobStatusAndRemoveFinalizers}), in upstream's order: an earlier SuccessCriteriaMet or
 * FailureTarget stands; then failure (pod failure policy, backoff limit, active deadline); then
 * success by completions. A finished Job first gets the interim condition (FailureTarget or
 * SuccessCriteriaMet) with its pods' finalizers removed and counted, and its terminal condition
 * (Failed or Complete) only once no pod is uncounted or terminating. Used by one thread.
 */
final class SyncJob {
  /** Upstream's {@code MaxUncountedPods}: keeps the status small and one sync short. */
  static final int MAX_UNCOUNTED_PODS = 500;

  /** Upstream's {@code MaxPodCreateDeletePerSync}. */
  static final int MAX_POD_CREATE_DELETE_PER_SYNC = 500;

  private final JobController.Deps deps;
  private final RateLimitingQueue<String> queue;
  private final Ctx ctx;
  private final String key;

  // The sync's context (upstream's syncJobCtx).
  private Job job;
  private List<Pod> pods;
  private int ready;
  private int terminating;
  private int succeeded;
  private Set<String> uncountedSucceeded;
  private Set<String> uncountedFailed;
  private JobCondition finishedCondition;
  private BackoffStore.Record newBackoffRecord;
  private int failed;

  /** The counters as the last status write left them, for {@code job_pods_finished_total}. */
  private JobMetrics.Counters oldCounters;

  /** Failed pods counted in this sync, by the pod failure policy rule action they matched. */
  private final java.util.Map<String, Integer> podFailureCountByPolicyAction =
      new java.util.TreeMap<>();

  /** The {@code action} label of the sync metrics; manageJob says what it did. */
  private String action = JobMetrics.ACTION_RECONCILING;

  /**
   * The pods whose finalizer removal this controller has not seen yet, read once per sync before
   * the pods are listed (upstream's {@code expectedRmFinalizers}): a UID missing here was seen
   * without finalizer by the cache the pods are then listed from, so every check in this sync
   * agrees. Reading the live expectations at each check let a removal the informer delivered
   * mid-sync make a pod counted earlier look unfinished and counted again.
   */
  private Set<String> expectedRmFinalizers;

  /** Indexed Jobs: the indexes the status recorded, and those plus the newly succeeded ones. */
  private OrderedIntervals prevSucceededIndexes;

  private OrderedIntervals succeededIndexes;

  SyncJob(JobController.Deps deps, RateLimitingQueue<String> queue, Ctx ctx, String key) {
    this.deps = deps;
    this.queue = queue;
    this.ctx = ctx;
    this.key = key;
  }

  void sync() {
    String[] nsName = QueueWorkers.splitKey(key);
    Optional<Job> cached = deps.jobLister().get(nsName[0], nsName[1]);
    if (cached.isEmpty()) {
      ctx.logger().v(4).info("Job has been deleted", "key", key);
      deps.expectations().deleteExpectations(key);
      deps.finalizerExpectations().forget(key);
      deps.backoff().remove(key);
      return;
    }
    String controller = JobController.managedByExternalController(cached.get());
    if (controller != null) {
      // Checked here too: the queued key may now name a new Job with managedBy set.
      ctx.logger()
          .v(2)
          .info(
              "Skip syncing the job as it is managed by an external controller",
              "key",
              key,
              "uid",
              cached.get().getMetadata().getUid(),
              "controllerName",
              controller);
      return;
    }
    job = new JobBuilder(cached.get()).build();
    if (JobUtil.isFinished(job)) {
      // Its pods' finalizers were released by the orphan queue (upstream's cleanupPodFinalizers).
      deps.backoff().remove(key);
      return;
    }
    String mode = job.getSpec().getCompletionMode();
    if (mode != null && !mode.equals("NonIndexed") && !mode.equals("Indexed")) {
      deps.recorder()
          .eventf(
              job,
              null,
              EventRecorder.WARNING,
              "UnknownCompletionMode",
              "Sync",
              "Skipped Job sync because completion mode %s is not supported by jdra",
              job.getSpec().getCompletionMode());
      return;
    }
    Instant start = deps.clock().now();
    boolean success = false;
    try {
      syncActive();
      success = true;
    } finally {
      double seconds = Duration.between(start, deps.clock().now()).toNanos() / 1e9;
      deps.metrics().recordSync(completionMode(job), success, action, seconds);
    }
  }

  /** The {@code completion_mode} label of upstream's metrics. */
  static String completionMode(Job job) {
    return IndexedJobUtil.isIndexed(job) ? JobMetrics.INDEXED : JobMetrics.NON_INDEXED;
  }

  private void syncActive() {
    if (job.getStatus() == null) {
      job.setStatus(new JobStatus());
    }
    JobStatus status = job.getStatus();
    if (status.getUncountedTerminatedPods() == null) {
      status.setUncountedTerminatedPods(new UncountedTerminatedPods());
    }
    boolean satisfied = deps.expectations().satisfiedExpectations(key);
    expectedRmFinalizers = deps.finalizerExpectations().expectedUids(key);
    pods = podsForJob();
    List<Pod> activePods = pods.stream().filter(PodUtil::isPodActive).toList();
    ready = (int) activePods.stream().filter(PodUtil::isPodReady).count();
    terminating =
        (int)
            pods.stream()
                .filter(p -> PodUtil.isTerminating(p) && !PodUtil.isPodTerminal(p))
                .count();
    uncountedSucceeded =
        new LinkedHashSet<>(list(status.getUncountedTerminatedPods().getSucceeded()));
    uncountedFailed = new LinkedHashSet<>(list(status.getUncountedTerminatedPods().getFailed()));
    List<Pod> newSucceeded =
        newFinished(uncountedSucceeded, p -> PodUtil.phase(p).equals("Succeeded"));
    List<Pod> newFailed = newFinished(uncountedFailed, p -> JobUtil.isPodFailed(p, job));
    succeeded = nz(status.getSucceeded()) + newSucceeded.size() + uncountedSucceeded.size();
    if (IndexedJobUtil.isIndexed(job)) {
      OrderedIntervals[] ix = IndexedJobUtil.succeededIndexes(job, pods);
      prevSucceededIndexes = ix[0];
      succeededIndexes = ix[1];
      succeeded = succeededIndexes.total();
    }
    failed = nz(status.getFailed()) + nonIgnoredFailed(newFailed) + uncountedFailed.size();
    Instant now = deps.clock().now();
    if (status.getStartTime() == null && !suspended()) {
      status.setStartTime(PodUtil.format(now));
    }
    newBackoffRecord = deps.backoff().next(key, newSucceeded, newFailed);
    decideFailure(now);
    int active = activePods.size();
    RuntimeException manageErr = null;
    boolean suspendChanged = false;
    if (finishedCondition != null) {
      int[] deleted = new int[2];
      manageErr = deleteActivePods(activePods, deleted);
      if (deleted[0] != active || !satisfied) {
        // Pods may still run, or be created and not in the cache yet: not finished yet.
        finishedCondition = null;
      }
      active -= deleted[0];
      terminating += deleted[0];
      ready -= deleted[1];
    } else {
      boolean manageCalled = false;
      if (satisfied && job.getMetadata().getDeletionTimestamp() == null) {
        int[] result = {active};
        manageErr = manageJob(activePods, result);
        active = result[0];
        manageCalled = true;
      }
      Integer completions = job.getSpec().getCompletions();
      boolean complete =
          completions == null
              ? succeeded > 0 && active == 0
              : succeeded >= completions && active == 0;
      if (complete) {
        finishedCondition =
            JobUtil.newCondition(
                JobUtil.SUCCESS_CRITERIA_MET,
                JobUtil.REASON_COMPLETIONS_REACHED,
                "Reached expected number of succeeded pods",
                now);
      } else if (manageCalled) {
        suspendChanged = syncSuspendedCondition(now);
      }
    }
    boolean needsStatusUpdate =
        suspendChanged
            || active != nz(status.getActive())
            // ready and terminating are pointers upstream: unset differs from 0.
            || !Integer.valueOf(ready).equals(status.getReady())
            || !Integer.valueOf(terminating).equals(status.getTerminating());
    status.setActive(active);
    status.setReady(ready);
    status.setTerminating(terminating);
    trackJobStatusAndRemoveFinalizers(needsStatusUpdate);
    if (manageErr != null) {
      throw manageErr;
    }
  }

  /** Failure scenarios in upstream's order; sets {@code finishedCondition}. */
  private void decideFailure(Instant now) {
    JobCondition met = JobUtil.condition(job, JobUtil.SUCCESS_CRITERIA_MET);
    if (JobUtil.isTrue(met)) {
      finishedCondition = met; // decided in an earlier sync
      return;
    }
    JobCondition target = JobUtil.condition(job, JobUtil.FAILURE_TARGET);
    if (JobUtil.isTrue(target)) {
      finishedCondition =
          JobUtil.newCondition(JobUtil.FAILED, target.getReason(), target.getMessage(), now);
      return;
    }
    String failJob = failJobMessage();
    if (failJob != null) {
      finishedCondition =
          JobUtil.newCondition(
              JobUtil.FAILURE_TARGET, JobUtil.REASON_POD_FAILURE_POLICY, failJob, now);
      return;
    }
    if (failed > backoffLimit() || pastBackoffLimitOnFailure()) {
      finishedCondition =
          JobUtil.newCondition(
              JobUtil.FAILURE_TARGET,
              JobUtil.REASON_BACKOFF_LIMIT_EXCEEDED,
              "Job has reached the specified backoff limit",
              now);
    } else if (pastActiveDeadline(now)) {
      finishedCondition =
          JobUtil.newCondition(
              JobUtil.FAILURE_TARGET,
              JobUtil.REASON_DEADLINE_EXCEEDED,
              "Job was active longer than specified deadline",
              now);
    } else if (job.getSpec().getActiveDeadlineSeconds() != null && !suspended()) {
      Duration left =
          Duration.ofSeconds(job.getSpec().getActiveDeadlineSeconds())
              .minus(Duration.between(PodUtil.time(job.getStatus().getStartTime()), now));
      queue.addAfter(key, left);
    }
  }

  private int backoffLimit() {
    return job.getSpec().getBackoffLimit() == null ? 6 : job.getSpec().getBackoffLimit();
  }

  private boolean suspended() {
    return Boolean.TRUE.equals(job.getSpec().getSuspend());
  }

  private boolean pastActiveDeadline(Instant now) {
    Long ads = job.getSpec().getActiveDeadlineSeconds();
    String start = job.getStatus().getStartTime();
    if (ads == null || start == null || suspended()) {
      return false;
    }
    return Duration.between(PodUtil.time(start), now).compareTo(Duration.ofSeconds(ads)) >= 0;
  }

  /** Upstream's {@code pastBackoffLimitOnFailure}: container restarts with OnFailure. */
  private boolean pastBackoffLimitOnFailure() {
    if (!"OnFailure".equals(job.getSpec().getTemplate().getSpec().getRestartPolicy())) {
      return false;
    }
    int restarts = 0;
    for (Pod p : pods) {
      String phase = PodUtil.phase(p);
      if ((phase.equals("Running") || phase.equals("Pending")) && p.getStatus() != null) {
        for (var s : list(p.getStatus().getInitContainerStatuses())) {
          restarts += nz(s.getRestartCount());
        }
        for (var s : list(p.getStatus().getContainerStatuses())) {
          restarts += nz(s.getRestartCount());
        }
      }
    }
    return backoffLimit() == 0 ? restarts > 0 : restarts >= backoffLimit();
  }

  private String failJobMessage() {
    if (job.getSpec().getPodFailurePolicy() == null) {
      return null;
    }
    for (Pod p : pods) {
      if (JobUtil.isPodFailed(p, job)) {
        String m =
            PodFailurePolicies.match(job.getSpec().getPodFailurePolicy(), p).failJobMessage();
        if (m != null) {
          return m;
        }
      }
    }
    return null;
  }

  private int nonIgnoredFailed(List<Pod> failedPods) {
    int n = 0;
    for (Pod p : failedPods) {
      if (PodFailurePolicies.match(job.getSpec().getPodFailurePolicy(), p).countFailed()) {
        n++;
      }
    }
    return n;
  }

  /** Whether the pod still carries the finalizer as far as this controller knows. */
  private boolean hasFinalizer(Pod p) {
    return JobUtil.hasTrackingFinalizer(p)
        && !expectedRmFinalizers.contains(p.getMetadata().getUid());
  }

  /** Upstream's {@code getNewFinishedPods}: finished, with finalizer, not yet uncounted. */
  private List<Pod> newFinished(Set<String> uncounted, Predicate<Pod> filter) {
    List<Pod> out = new ArrayList<>();
    for (Pod p : pods) {
      if (hasFinalizer(p) && !uncounted.contains(p.getMetadata().getUid()) && filter.test(p)) {
        out.add(p);
      }
    }
    return out;
  }

  private boolean syncSuspendedCondition(Instant now) {
    List<JobCondition> next;
    if (suspended()) {
      next =
          JobUtil.ensureCondition(
              job.getStatus().getConditions(),
              JobUtil.SUSPENDED,
              "True",
              "JobSuspended",
              "Job suspended",
              now);
      if (next != null) {
        deps.recorder()
            .eventf(job, null, EventRecorder.NORMAL, "Suspended", "Sync", "Job suspended");
      }
    } else {
      next =
          JobUtil.ensureCondition(
              job.getStatus().getConditions(),
              JobUtil.SUSPENDED,
              "False",
              "JobResumed",
              "Job resumed",
              now);
      if (next != null) {
        deps.recorder().eventf(job, null, EventRecorder.NORMAL, "Resumed", "Sync", "Job resumed");
        // activeDeadlineSeconds counts continuous activity: restart the clock on resume.
        job.getStatus().setStartTime(PodUtil.format(now));
      }
    }
    if (next == null) {
      return false;
    }
    job.getStatus().setConditions(next);
    return true;
  }

  // ---- pods ----

  /** Upstream's {@code getPodsForJob}: claimed pods; adoption adds the tracking finalizer. */
  private List<Pod> podsForJob() {
    String ns = job.getMetadata().getNamespace();
    Job owner = job;
    ControllerRefManager<Pod> m =
        new ControllerRefManager<>(
            owner,
            p -> LabelSelectors.matches(owner.getSpec().getSelector(), p.getMetadata().getLabels()),
            () ->
                deps.client()
                    .batch()
                    .v1()
                    .jobs()
                    .inNamespace(ns)
                    .withName(owner.getMetadata().getName())
                    .get(),
            (p, patch) ->
                deps.client()
                    .pods()
                    .inNamespace(ns)
                    .withName(p.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch),
            JobUtil.JOB_TRACKING_FINALIZER);
    ControllerRefManager.Claimed<Pod> claimed = m.claim(deps.podLister().list(ns));
    if (claimed.error() != null) {
      throw claimed.error();
    }
    return claimed.objects();
  }

  /** Upstream's {@code manageJob}; {@code active[0]} is updated. */
  private RuntimeException manageJob(List<Pod> activePods, int[] active) {
    int parallelism = job.getSpec().getParallelism() == null ? 1 : job.getSpec().getParallelism();
    if (suspended()) {
      action = JobMetrics.ACTION_PODS_DELETED;
      return deleteJobPods(activePods, active);
    }
    Integer completions = job.getSpec().getCompletions();
    int wantActive;
    if (completions == null) {
      wantActive = succeeded > 0 ? active[0] : parallelism;
    } else {
      wantActive = Math.max(0, Math.min(completions - succeeded, parallelism));
    }
    int rmAtLeast = Math.max(0, active[0] - wantActive);
    List<Pod> toDelete =
        IndexedJobUtil.isIndexed(job)
            ? IndexedJobUtil.activePodsForRemoval(job, activePods, rmAtLeast)
            : ActivePodsWithRanks.sortActivePods(activePods).subList(0, rmAtLeast);
    if (!toDelete.isEmpty()) {
      // Deletion takes precedence: an Indexed Job with a repeated index creates next time.
      toDelete = toDelete.subList(0, Math.min(toDelete.size(), MAX_POD_CREATE_DELETE_PER_SYNC));
      ctx.logger().info("Deleting excess pods for job", "job", key, "deleteCount", toDelete.size());
      action = JobMetrics.ACTION_PODS_DELETED;
      return deleteJobPods(toDelete, active);
    }
    int terminatingToWait = JobUtil.onlyReplaceFailedPods(job) ? terminating : 0;
    int diff = wantActive - terminatingToWait - active[0];
    action = diff > 0 ? JobMetrics.ACTION_PODS_CREATED : JobMetrics.ACTION_TRACKING;
    List<Integer> indexes = null;
    if (diff > 0 && IndexedJobUtil.isIndexed(job)) {
      List<Pod> terminatingPods =
          pods.stream().filter(p -> PodUtil.isTerminating(p) && !PodUtil.isPodTerminal(p)).toList();
      indexes =
          IndexedJobUtil.firstPendingIndexes(
              job, succeededIndexes, activePods, terminatingPods, diff);
      diff = indexes.size();
    }
    if (diff <= 0) {
      return null;
    }
    Duration wait = newBackoffRecord.remaining(deps.clock().now());
    if (wait.compareTo(Duration.ZERO) > 0) {
      ctx.logger().info("Delaying pod creation for job due to backoff", "job", key, "delay", wait);
      queue.addAfter(key, wait);
      return null;
    }
    return createPods(Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC), indexes, active);
  }

  /** Creates {@code diff} pods; for an Indexed Job, those of the first {@code diff} indexes. */
  private RuntimeException createPods(int diff, List<Integer> indexes, int[] active) {
    ctx.logger().info("Creating pods for job", "job", key, "createCount", diff);
    deps.expectations().expectCreations(key, diff);
    PodTemplateSpec template = job.getSpec().getTemplate();
    OwnerReference ref = OwnerRefs.newControllerRef(job);
    AtomicInteger created = new AtomicInteger();
    AtomicInteger failedCreates = new AtomicInteger();
    SlowStart.Result r =
        SlowStart.run(
            diff,
            i -> {
              try {
                Integer ix = indexes == null ? null : indexes.get(i);
                deps.podControl()
                    .createPod(
                        job.getMetadata().getNamespace(),
                        ix == null ? template : IndexedJobUtil.templateFor(job, ix),
                        job,
                        ref,
                        ix == null
                            ? job.getMetadata().getName() + "-"
                            : IndexedJobUtil.generateName(job.getMetadata().getName(), ix),
                        List.of(JobUtil.JOB_TRACKING_FINALIZER));
                created.incrementAndGet();
              } catch (RuntimeException e) {
                if (!ApiErrors.isNamespaceTerminating(e)) {
                  failedCreates.incrementAndGet();
                  throw e;
                }
              }
              return null;
            });
    recordPodsCreation(created.get(), failedCreates.get());
    for (int i = r.successes(); i < diff; i++) {
      deps.expectations().creationObserved(key);
    }
    active[0] += r.successes();
    return r.error();
  }

  /**
   * Upstream's {@code recordJobPodsCreationTotal}: the reason says whether the pods replace failed
   * (or terminating) ones. A failed creation counts as failed only (upstream's code also counts it
   * as succeeded, against the metric's documented meaning); one refused because the namespace is
   * terminating counts as neither, as upstream.
   */
  private void recordPodsCreation(int succeededCount, int failedCount) {
    String reason = JobMetrics.POD_CREATE_NEW;
    if ("Failed".equals(job.getSpec().getPodReplacementPolicy()) && failed > 0) {
      reason = JobMetrics.POD_RECREATE_FAILED;
    } else if (failed > 0 || terminating > 0) {
      reason = JobMetrics.POD_RECREATE_TERMINATING_OR_FAILED;
    }
    if (succeededCount > 0) {
      deps.metrics().podsCreation.labelValues(reason, JobMetrics.SUCCEEDED).inc(succeededCount);
    }
    if (failedCount > 0) {
      deps.metrics().podsCreation.labelValues(reason, JobMetrics.FAILED).inc(failedCount);
    }
  }

  /** Upstream's {@code deleteJobPods}: finalizer removed first, then the pod deleted. */
  private RuntimeException deleteJobPods(List<Pod> toDelete, int[] active) {
    Set<String> keys = new LinkedHashSet<>();
    toDelete.forEach(p -> keys.add(PodUtil.key(p)));
    deps.expectations().expectDeletions(key, keys);
    RuntimeException first = null;
    for (Pod p : toDelete) {
      try {
        removeFinalizer(p);
        deps.podControl().deletePod(p.getMetadata().getNamespace(), p.getMetadata().getName(), job);
        active[0]--;
        terminating++;
        if (PodUtil.isPodReady(p)) {
          ready--;
        }
      } catch (PodControl.NotFoundException e) {
        deps.expectations().deletionObserved(key, PodUtil.key(p));
        active[0]--;
      } catch (RuntimeException e) {
        deps.expectations().deletionObserved(key, PodUtil.key(p));
        first = first == null ? e : first;
      }
    }
    return first;
  }

  /**
   * Upstream's {@code deleteActivePods} for a finished Job: delete, keeping finalizers (the
   * tracking below removes them once counted). {@code deleted} gets [deleted, deleted ready].
   */
  private RuntimeException deleteActivePods(List<Pod> activePods, int[] deleted) {
    RuntimeException first = null;
    for (Pod p : activePods) {
      try {
        deps.podControl().deletePod(p.getMetadata().getNamespace(), p.getMetadata().getName(), job);
      } catch (PodControl.NotFoundException e) {
        // gone already: deleted all the same
      } catch (RuntimeException e) {
        first = first == null ? e : first;
        continue;
      }
      deleted[0]++;
      if (PodUtil.isPodReady(p)) {
        deleted[1]++;
      }
    }
    return first;
  }

  /**
   * Expects the removal before asking for it (as upstream): the informer may show it before the
   * patch call returns. A failed patch will not be seen, so its expectation goes at once.
   */
  private void removeFinalizer(Pod p) {
    if (!JobUtil.hasTrackingFinalizer(p)) {
      return;
    }
    String uid = p.getMetadata().getUid();
    deps.finalizerExpectations().expectRemoved(key, uid);
    boolean patched = false;
    try {
      patched = JobUtil.removeTrackingFinalizer(deps.client(), p);
    } finally {
      if (!patched) {
        deps.finalizerExpectations().observed(key, uid);
      }
    }
  }

  // ---- counting finished pods ----

  /** Upstream's {@code trackJobStatusAndRemoveFinalizers}. */
  private void trackJobStatusAndRemoveFinalizers(boolean needsFlush) {
    Set<String> withFinalizer = new LinkedHashSet<>();
    for (Pod p : pods) {
      if (hasFinalizer(p)) {
        withFinalizer.add(p.getMetadata().getUid());
      }
    }
    JobStatus status = job.getStatus();
    // Taken before any count moves, to report what each status write counted.
    oldCounters = JobMetrics.Counters.of(job);
    needsFlush |= cleanUncounted(status, withFinalizer);
    List<Pod> toRemoveFinalizer = new ArrayList<>();
    List<String> uncSucceeded =
        new ArrayList<>(list(status.getUncountedTerminatedPods().getSucceeded()));
    List<String> uncFailed = new ArrayList<>(list(status.getUncountedTerminatedPods().getFailed()));
    boolean reachedMax = false;
    List<Integer> newSucceededIndexes = new ArrayList<>();
    for (Pod p : pods) {
      if (!hasFinalizer(p)) {
        continue; // counted in an earlier sync
      }
      boolean considerFailed = JobUtil.isPodFailed(p, job);
      if (!canRemoveFinalizer(p, considerFailed)) {
        continue;
      }
      toRemoveFinalizer.add(p);
      String uid = p.getMetadata().getUid();
      if (PodUtil.phase(p).equals("Succeeded") && !uncountedFailed.contains(uid)) {
        if (succeededIndexes != null) {
          // The index is enough not to count a pod twice: no UID is tracked.
          int ix = IndexedJobUtil.completionIndex(p);
          if (ix != IndexedJobUtil.UNKNOWN
              && ix < job.getSpec().getCompletions()
              && !prevSucceededIndexes.has(ix)) {
            newSucceededIndexes.add(ix);
            needsFlush = true;
          }
        } else if (!uncountedSucceeded.contains(uid) && !uncSucceeded.contains(uid)) {
          uncSucceeded.add(uid);
          needsFlush = true;
        }
      } else if (considerFailed || finishedCondition != null && !isSuccess(finishedCondition)) {
        // A finished (failed) Job counts every pod that did not succeed as failed.
        if (!uncountedFailed.contains(uid) && !uncFailed.contains(uid)) {
          PodFailurePolicies.Match m =
              PodFailurePolicies.match(job.getSpec().getPodFailurePolicy(), p);
          if (m.action() != null) {
            podFailureCountByPolicyAction.merge(m.action(), 1, Integer::sum);
          }
          if (m.countFailed()) {
            uncFailed.add(uid);
            needsFlush = true;
          }
        }
      }
      if (uncSucceeded.size() + uncFailed.size() >= MAX_UNCOUNTED_PODS) {
        reachedMax = true;
        break;
      }
    }
    status.getUncountedTerminatedPods().setSucceeded(uncSucceeded);
    status.getUncountedTerminatedPods().setFailed(uncFailed);
    if (succeededIndexes != null) {
      succeededIndexes = succeededIndexes.withIndexes(newSucceededIndexes);
      String completed = succeededIndexes.toString();
      String before = status.getCompletedIndexes() == null ? "" : status.getCompletedIndexes();
      needsFlush |= !completed.equals(before);
      status.setSucceeded(succeededIndexes.total());
      status.setCompletedIndexes(completed.isEmpty() ? null : completed);
    }
    Instant now = deps.clock().now();
    if (finishedCondition != null && JobUtil.FAILURE_TARGET.equals(finishedCondition.getType())) {
      addCondition(finishedCondition);
      needsFlush = true;
      finishedCondition =
          JobUtil.newCondition(
              JobUtil.FAILED, finishedCondition.getReason(), finishedCondition.getMessage(), now);
    }
    if (isSuccess(finishedCondition)) {
      if (!JobUtil.isTrue(JobUtil.condition(job, JobUtil.SUCCESS_CRITERIA_MET))) {
        addCondition(finishedCondition);
        needsFlush = true;
      }
      finishedCondition =
          JobUtil.newCondition(
              JobUtil.COMPLETE, finishedCondition.getReason(), finishedCondition.getMessage(), now);
    }
    needsFlush = flushUncountedAndRemoveFinalizers(toRemoveFinalizer, withFinalizer, needsFlush);
    boolean finished = !reachedMax && enactJobFinished(now);
    if (finished || needsFlush) {
      updateStatus();
      if (finished) {
        recordJobFinished();
      }
      deps.metrics().recordJobPodFinished(job, oldCounters);
    }
  }

  private static boolean isSuccess(JobCondition c) {
    return c != null && JobUtil.SUCCESS_CRITERIA_MET.equals(c.getType());
  }

  private boolean canRemoveFinalizer(Pod p, boolean considerFailed) {
    return job.getMetadata().getDeletionTimestamp() != null
        || finishedCondition != null
        || PodUtil.phase(p).equals("Succeeded")
        || considerFailed;
  }

  private void addCondition(JobCondition c) {
    List<JobCondition> list = new ArrayList<>(list(job.getStatus().getConditions()));
    list.add(c);
    job.getStatus().setConditions(list);
  }

  /**
   * Upstream's {@code flushUncountedAndRemoveFinalizers}: write the uncounted UIDs first (so a
   * crash cannot lose a pod whose finalizer is gone), then remove the finalizers, then move the
   * UIDs of pods without finalizer into the counters. Returns whether a write is still due.
   */
  private boolean flushUncountedAndRemoveFinalizers(
      List<Pod> toRemoveFinalizer, Set<String> withFinalizer, boolean needsFlush) {
    if (needsFlush) {
      updateStatus();
      deps.backoff().update(newBackoffRecord);
      deps.metrics().recordJobPodFinished(job, oldCounters);
      oldCounters = JobMetrics.Counters.of(job);
      needsFlush = false;
    }
    podFailureCountByPolicyAction.forEach((policyAction, n) ->
        deps.metrics().podFailuresHandledByFailurePolicy.labelValues(policyAction).inc(n));
    RuntimeException rmErr = null;
    for (Pod p : toRemoveFinalizer) {
      try {
        removeFinalizer(p);
        withFinalizer.remove(p.getMetadata().getUid());
      } catch (RuntimeException e) {
        rmErr = rmErr == null ? e : rmErr;
      }
    }
    if (cleanUncounted(job.getStatus(), withFinalizer)) {
      needsFlush = true;
    }
    if (rmErr != null) {
      if (needsFlush) {
        updateStatus();
      }
      throw rmErr;
    }
    return needsFlush;
  }

  /** Moves uncounted UIDs whose pods lost the finalizer into the counters; true if any moved. */
  private static boolean cleanUncounted(JobStatus status, Set<String> withFinalizer) {
    UncountedTerminatedPods u = status.getUncountedTerminatedPods();
    boolean updated = false;
    List<String> s = list(u.getSucceeded()).stream().filter(withFinalizer::contains).toList();
    if (s.size() != list(u.getSucceeded()).size()) {
      status.setSucceeded(nz(status.getSucceeded()) + list(u.getSucceeded()).size() - s.size());
      u.setSucceeded(new ArrayList<>(s));
      updated = true;
    }
    List<String> f = list(u.getFailed()).stream().filter(withFinalizer::contains).toList();
    if (f.size() != list(u.getFailed()).size()) {
      status.setFailed(nz(status.getFailed()) + list(u.getFailed()).size() - f.size());
      u.setFailed(new ArrayList<>(f));
      updated = true;
    }
    return updated;
  }

  /** Upstream's {@code enactJobFinished}: the terminal condition once nothing is pending. */
  private boolean enactJobFinished(Instant now) {
    if (finishedCondition == null) {
      return false;
    }
    UncountedTerminatedPods u = job.getStatus().getUncountedTerminatedPods();
    if (!list(u.getSucceeded()).isEmpty() || !list(u.getFailed()).isEmpty() || terminating > 0) {
      return false;
    }
    List<JobCondition> next =
        JobUtil.ensureCondition(
            job.getStatus().getConditions(),
            finishedCondition.getType(),
            "True",
            finishedCondition.getReason(),
            finishedCondition.getMessage(),
            now);
    if (next != null) {
      job.getStatus().setConditions(next);
    }
    if (JobUtil.COMPLETE.equals(finishedCondition.getType())) {
      job.getStatus().setCompletionTime(PodUtil.format(now));
    }
    return true;
  }

  private void recordJobFinished() {
    if (JobUtil.COMPLETE.equals(finishedCondition.getType())) {
      Integer completions = job.getSpec().getCompletions();
      if (completions != null && nz(job.getStatus().getSucceeded()) > completions) {
        deps.recorder()
            .eventf(
                job,
                null,
                EventRecorder.WARNING,
                "TooManySucceededPods",
                "Sync",
                "Too many succeeded pods running after completion count reached");
      }
      deps.recorder().eventf(job, null, EventRecorder.NORMAL, "Completed", "Sync", "Job completed");
      ctx.logger().info("Job completed", "job", key, "succeeded", job.getStatus().getSucceeded());
      recordJobsFinished(JobMetrics.SUCCEEDED);
    } else {
      deps.recorder()
          .eventf(
              job,
              null,
              EventRecorder.WARNING,
              finishedCondition.getReason(),
              "Sync",
              "%s",
              finishedCondition.getMessage());
      ctx.logger().info("Job failed", "job", key, "reason", finishedCondition.getReason());
      recordJobsFinished(JobMetrics.FAILED);
    }
  }

  /** Success is labelled with its reason too ({@code CompletionsReached}), as since 1.33. */
  private void recordJobsFinished(String result) {
    String reason = finishedCondition.getReason() == null ? "" : finishedCondition.getReason();
    deps.metrics().jobsFinished.labelValues(completionMode(job), result, reason).inc();
  }

  private void updateStatus() {
    // active, succeeded and failed are omitempty int32 upstream: zero is not written.
    JobStatus st = job.getStatus();
    st.setActive(zeroToNull(st.getActive()));
    st.setSucceeded(zeroToNull(st.getSucceeded()));
    st.setFailed(zeroToNull(st.getFailed()));
    job =
        deps.client()
            .batch()
            .v1()
            .jobs()
            .inNamespace(job.getMetadata().getNamespace())
            .resource(job)
            .updateStatus();
    if (job.getStatus().getUncountedTerminatedPods() == null) {
      job.getStatus().setUncountedTerminatedPods(new UncountedTerminatedPods());
    }
  }

  private static Integer zeroToNull(Integer i) {
    return i == null || i == 0 ? null : i;
  }

  private static <T> List<T> list(List<T> l) {
    return l == null ? List.of() : l;
  }
}
