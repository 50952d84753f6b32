package io.jdra.controllers.job;

import static io.jdra.controllers.job.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.testing.apiserver.WithApiServer;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Indexed completion mode as upstream's job_controller_test.go and indexed_job_utils_test.go: pods
 * per index with annotation, label, host name and {@code JOB_COMPLETION_INDEX}; succeeded indexes
 * recorded in {@code status.completedIndexes}; completion when every index succeeded; a repeated
 * index deleted. Writes go to the embedded API server, reads come from caches the case fills.
 */
@WithApiServer
class IndexedJobTest {
  static final String INDEX = IndexedJobUtil.COMPLETION_INDEX_ANNOTATION;

  record Case(String name, Consumer<Harness> given, Consumer<Harness> then) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Job indexed(int completions, int parallelism) {
    return Harness.job(completions, parallelism)
        .editSpec()
        .withCompletionMode("Indexed")
        .endSpec()
        .build();
  }

  /** A pod of index {@code ix} as the controller makes it. */
  static PodBuilder indexedPod(Harness h, String name, int ix) {
    return h.pod(name)
        .editMetadata()
        .addToAnnotations(INDEX, String.valueOf(ix))
        .addToLabels(IndexedJobUtil.COMPLETION_INDEX_LABEL, String.valueOf(ix))
        .endMetadata();
  }

  static List<Integer> indexes(List<Pod> pods) {
    return pods.stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .map(IndexedJobUtil::completionIndex)
        .sorted()
        .toList();
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "creates the first parallelism indexes with annotation, label, host name and env",
            h -> h.job(indexed(3, 2)),
            h -> {
              List<Pod> pods =
                  h.serverPods().stream()
                      .sorted(Comparator.comparing(IndexedJobUtil::completionIndex))
                      .toList();
              assertThat(indexes(pods)).containsExactly(0, 1);
              Pod p0 = pods.get(0);
              assertThat(p0.getMetadata().getName()).startsWith("pi-0-");
              assertThat(p0.getMetadata().getAnnotations()).containsEntry(INDEX, "0");
              assertThat(p0.getMetadata().getLabels())
                  .containsEntry(IndexedJobUtil.COMPLETION_INDEX_LABEL, "0");
              assertThat(p0.getSpec().getHostname()).isEqualTo("pi-0");
              EnvVar env = p0.getSpec().getContainers().get(0).getEnv().get(0);
              assertThat(env.getName()).isEqualTo("JOB_COMPLETION_INDEX");
              assertThat(env.getValueFrom().getFieldRef().getFieldPath())
                  .isEqualTo("metadata.annotations['batch.kubernetes.io/job-completion-index']");
              assertThat(pods.get(1).getSpec().getHostname()).isEqualTo("pi-1");
            }),
        new Case(
            "a succeeded index is recorded and the next pending index is created",
            h -> {
              h.job(indexed(3, 2));
              h.pod(indexedPod(h, "a", 0).withStatus(Harness.finished(true, 0, T0)).build());
              h.pod(indexedPod(h, "b", 1).withStatus(Harness.running()).build());
            },
            h -> {
              Job job = h.serverJob();
              assertThat(job.getStatus().getCompletedIndexes()).isEqualTo("0");
              assertThat(job.getStatus().getSucceeded()).isEqualTo(1);
              assertThat(job.getStatus().getUncountedTerminatedPods().getSucceeded()).isEmpty();
              assertThat(indexes(h.serverPods())).containsExactly(0, 1, 2);
            }),
        new Case(
            "a failed index is created again",
            h -> {
              h.job(indexed(2, 2));
              h.pod(indexedPod(h, "a", 0).withStatus(Harness.finished(false, 1, T0)).build());
              h.pod(indexedPod(h, "b", 1).withStatus(Harness.running()).build());
            },
            h -> {
              h.catchUp();
              h.clock.step(java.time.Duration.ofMinutes(1));
              h.sync();
              assertThat(h.serverJob().getStatus().getFailed()).isEqualTo(1);
              assertThat(indexes(h.serverPods())).containsExactly(0, 0, 1);
            }),
        new Case(
            "a repeated index keeps one pod",
            h -> {
              h.job(indexed(3, 3));
              h.pod(indexedPod(h, "a", 0).withStatus(Harness.running()).build());
              h.pod(indexedPod(h, "b", 0).build());
              h.pod(indexedPod(h, "c", 1).withStatus(Harness.running()).build());
              h.pod(indexedPod(h, "d", 2).withStatus(Harness.running()).build());
            },
            h -> {
              List<Pod> live =
                  h.serverPods().stream()
                      .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                      .toList();
              assertThat(indexes(live)).containsExactly(0, 1, 2);
              assertThat(live).extracting(p -> p.getMetadata().getName()).contains("a");
            }),
        new Case(
            "every index succeeded: completedIndexes 0-2 and the Job completes",
            h -> {
              h.job(indexed(3, 3));
              h.pod(indexedPod(h, "a", 0).withStatus(Harness.finished(true, 0, T0)).build());
              h.pod(indexedPod(h, "b", 1).withStatus(Harness.finished(true, 0, T0)).build());
              h.pod(indexedPod(h, "c", 2).withStatus(Harness.finished(true, 0, T0)).build());
            },
            h -> {
              h.catchUp();
              h.sync();
              Job job = h.serverJob();
              assertThat(job.getStatus().getCompletedIndexes()).isEqualTo("0-2");
              assertThat(job.getStatus().getSucceeded()).isEqualTo(3);
              assertThat(JobUtil.isTrue(JobUtil.condition(job, JobUtil.COMPLETE))).isTrue();
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void sync(Case c, KubernetesClient client) {
    Harness h = new Harness(client);
    c.given().accept(h);
    h.sync();
    c.then().accept(h);
  }

  @Test
  void intervalsAreWrittenAsUpstreamWritesThem() {
    assertThat(OrderedIntervals.parse("1,3-5,7", 10).toString()).isEqualTo("1,3-5,7");
    assertThat(OrderedIntervals.EMPTY.withIndexes(List.of(2, 1)).toString()).isEqualTo("1,2");
    assertThat(OrderedIntervals.parse("0,1,2,5", 10).toString()).isEqualTo("0-2,5");
    assertThat(OrderedIntervals.parse("2-9,x,12", 5).toString()).isEqualTo("2-4");
    assertThat(OrderedIntervals.parse("1,3", 10).withIndexes(List.of(2)).total()).isEqualTo(3);
  }

  @Test
  void generatedNamesFitAfterTheIndex() {
    assertThat(IndexedJobUtil.generateName("pi", 7)).isEqualTo("pi-7-");
    String longName = "j".repeat(60);
    assertThat(IndexedJobUtil.generateName(longName, 12)).hasSize(58).endsWith("-12-");
  }

  @Test
  void firstPendingIndexesSkipSucceededAndActive() {
    Job job = indexed(6, 6);
    Pod active =
        new PodBuilder()
            .withNewMetadata()
            .withAnnotations(Map.of(INDEX, "1"))
            .endMetadata()
            .build();
    assertThat(
            IndexedJobUtil.firstPendingIndexes(
                job, OrderedIntervals.parse("0,3", 6), List.of(active), List.of(), 3))
        .containsExactly(2, 4, 5);
  }
}
