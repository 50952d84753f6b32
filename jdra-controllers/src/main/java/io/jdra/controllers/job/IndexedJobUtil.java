package io.jdra.controllers.job;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.jdra.controllers.controllerutil.ActivePodsWithRanks;
import io.jdra.controllers.controllerutil.PodUtil;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code Indexed} completion mode (upstream's {@code indexed_job_utils.go}): each pod carries its
 * completion index (annotation and label {@code batch.kubernetes.io/job-completion-index}, env
 * {@code JOB_COMPLETION_INDEX} from that annotation, host name {@code <job>-<index>}); the Job
 * succeeds once every index in {@code [0, completions)} has a succeeded pod, recorded in {@code
 * status.completedIndexes}. Stateless.
 */
final class IndexedJobUtil {
  private IndexedJobUtil() {}

  static final String COMPLETION_INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index";
  static final String COMPLETION_INDEX_LABEL = "batch.kubernetes.io/job-completion-index";
  static final String COMPLETION_INDEX_ENV_NAME = "JOB_COMPLETION_INDEX";

  /** Upstream's {@code names.MaxGeneratedNameLength}: 63 minus the 5 random characters. */
  static final int MAX_GENERATED_NAME_LENGTH = 58;

  static final int UNKNOWN = -1;

  static boolean isIndexed(Job job) {
    return "Indexed".equals(job.getSpec().getCompletionMode());
  }

  /** The pod's index from its annotation, or {@link #UNKNOWN}. */
  static int completionIndex(Pod p) {
    Map<String, String> a = p.getMetadata().getAnnotations();
    String v = a == null ? null : a.get(COMPLETION_INDEX_ANNOTATION);
    if (v == null) {
      return UNKNOWN;
    }
    try {
      int i = Integer.parseInt(v);
      return i < 0 ? UNKNOWN : i;
    } catch (NumberFormatException e) {
      return UNKNOWN;
    }
  }

  /**
   * Upstream's {@code calculateSucceededIndexes}: [0] the indexes the status recorded, [1] those
   * plus the indexes of succeeded pods still holding the tracking finalizer.
   */
  static OrderedIntervals[] succeededIndexes(Job job, List<Pod> pods) {
    int completions = job.getSpec().getCompletions();
    OrderedIntervals prev =
        OrderedIntervals.parse(
            job.getStatus() == null ? null : job.getStatus().getCompletedIndexes(), completions);
    List<Integer> fresh = new ArrayList<>();
    for (Pod p : pods) {
      int ix = completionIndex(p);
      if (PodUtil.phase(p).equals("Succeeded")
          && JobUtil.hasTrackingFinalizer(p)
          && ix != UNKNOWN
          && ix < completions) {
        fresh.add(ix);
      }
    }
    return new OrderedIntervals[] {prev, prev.withIndexes(fresh)};
  }

  /**
   * Upstream's {@code firstPendingIndexes}: up to {@code count} indexes, lowest first, neither
   * succeeded nor held by an active pod (nor by a terminating one when only failed pods are
   * replaced).
   */
  static List<Integer> firstPendingIndexes(
      Job job, OrderedIntervals succeeded, List<Pod> active, List<Pod> terminating, int count) {
    int completions = job.getSpec().getCompletions();
    List<Integer> busy = new ArrayList<>(indexes(active));
    if (JobUtil.onlyReplaceFailedPods(job)) {
      busy.addAll(indexes(terminating));
    }
    OrderedIntervals nonPending = succeeded.withIndexes(busy);
    List<Integer> out = new ArrayList<>();
    for (int ix = 0; ix < completions && out.size() < count; ix++) {
      if (!nonPending.has(ix)) {
        out.add(ix);
      }
    }
    return out;
  }

  private static List<Integer> indexes(List<Pod> pods) {
    List<Integer> out = new ArrayList<>();
    for (Pod p : pods) {
      int ix = completionIndex(p);
      if (ix != UNKNOWN) {
        out.add(ix);
      }
    }
    return out;
  }

  /**
   * Upstream's {@code activePodsForRemoval} for Indexed Jobs: pods without a valid index, and of
   * several pods with the same index all but the one kept longest by the deletion ranking; then, if
   * fewer than {@code rmAtLeast}, the first of the rest by that ranking.
   */
  static List<Pod> activePodsForRemoval(Job job, List<Pod> active, int rmAtLeast) {
    int completions = job.getSpec().getCompletions();
    List<Pod> rm = new ArrayList<>();
    List<Pod> left = new ArrayList<>();
    Map<Integer, List<Pod>> byIndex = new TreeMap<>();
    for (Pod p : active) {
      int ix = completionIndex(p);
      if (ix == UNKNOWN || ix >= completions) {
        rm.add(p);
      } else {
        byIndex.computeIfAbsent(ix, k -> new ArrayList<>()).add(p);
      }
    }
    for (List<Pod> same : byIndex.values()) {
      List<Pod> sorted = ActivePodsWithRanks.sortActivePods(same);
      rm.addAll(sorted.subList(0, sorted.size() - 1));
      left.add(sorted.get(sorted.size() - 1));
    }
    if (rm.size() < rmAtLeast) {
      List<Pod> sorted = ActivePodsWithRanks.sortActivePods(left);
      rm.addAll(sorted.subList(0, Math.min(sorted.size(), rmAtLeast - rm.size())));
    }
    return rm;
  }

  /**
   * The template of the pod for {@code index}: annotation, label, host name and the {@code
   * JOB_COMPLETION_INDEX} variable in every container that does not set it already.
   */
  static PodTemplateSpec templateFor(Job job, int index) {
    PodTemplateSpec t = new PodTemplateSpecBuilder(job.getSpec().getTemplate()).build();
    Map<String, String> annotations = new HashMap<>();
    if (t.getMetadata().getAnnotations() != null) {
      annotations.putAll(t.getMetadata().getAnnotations());
    }
    annotations.put(COMPLETION_INDEX_ANNOTATION, String.valueOf(index));
    t.getMetadata().setAnnotations(annotations);
    Map<String, String> labels = new HashMap<>();
    if (t.getMetadata().getLabels() != null) {
      labels.putAll(t.getMetadata().getLabels());
    }
    labels.put(COMPLETION_INDEX_LABEL, String.valueOf(index));
    t.getMetadata().setLabels(labels);
    t.getSpec().setHostname(job.getMetadata().getName() + "-" + index);
    t.getSpec().getContainers().forEach(IndexedJobUtil::addCompletionIndexEnv);
    t.getSpec().getInitContainers().forEach(IndexedJobUtil::addCompletionIndexEnv);
    return t;
  }

  private static void addCompletionIndexEnv(Container c) {
    List<EnvVar> env = c.getEnv() == null ? new ArrayList<>() : new ArrayList<>(c.getEnv());
    if (env.stream().anyMatch(e -> COMPLETION_INDEX_ENV_NAME.equals(e.getName()))) {
      return;
    }
    env.add(
        new EnvVarBuilder()
            .withName(COMPLETION_INDEX_ENV_NAME)
            .withNewValueFrom()
            .withNewFieldRef()
            .withFieldPath("metadata.annotations['" + COMPLETION_INDEX_ANNOTATION + "']")
            .endFieldRef()
            .endValueFrom()
            .build());
    c.setEnv(env);
  }

  /** Upstream's {@code podGenerateNameWithIndex}: {@code <job>-<index>-}, cut to fit. */
  static String generateName(String jobName, int index) {
    String suffix = "-" + index + "-";
    String prefix = jobName + suffix;
    if (prefix.length() > MAX_GENERATED_NAME_LENGTH) {
      prefix = jobName.substring(0, MAX_GENERATED_NAME_LENGTH - suffix.length()) + suffix;
    }
    return prefix;
  }
}
