package io.jdra.controllers.job;

import static io.jdra.controllers.job.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.testing.apiserver.WithApiServer;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Job controller's event handlers as upstream's {@code addPod}, {@code updatePod}, {@code
 * deletePod}, {@code updateJob} and {@code deleteJob}: which pods go to the orphan queue, and the
 * {@code terminated_pods_tracking_finalizer_total} counts they record.
 */
@WithApiServer
class PodEventsTest {
  record Case(
      String name, Consumer<Harness> events, boolean orphanQueued, Map<String, Double> fin) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Pod withFinalizer(Harness h) {
    return h.pod(h.pod("p").withStatus(Harness.running()).build());
  }

  static Pod terminated(Pod p) {
    return new PodBuilder(p)
        .editMetadata()
        .withResourceVersion(p.getMetadata().getResourceVersion() + "1")
        .endMetadata()
        .withStatus(Harness.finished(true, 0, T0))
        .build();
  }

  static Pod noFinalizer(Pod p) {
    return new PodBuilder(p)
        .editMetadata()
        .withFinalizers()
        .withResourceVersion(p.getMetadata().getResourceVersion() + "2")
        .endMetadata()
        .build();
  }

  static Job complete(Job j) {
    return new JobBuilder(j)
        .editMetadata()
        .withResourceVersion(j.getMetadata().getResourceVersion() + "1")
        .endMetadata()
        .withNewStatus()
        .addNewCondition()
        .withType("Complete")
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }

  static final Map<String, Double> NONE = Map.of("add", 0.0, "delete", 0.0);

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "an added orphan with the finalizer",
            h -> h.controller().addPod(h.pod(Harness.orphan(h).build())),
            true,
            NONE),
        new Case(
            "an added orphan without the finalizer",
            h ->
                h.controller()
                    .addPod(
                        h.pod(
                            Harness.orphan(h)
                                .editMetadata()
                                .withFinalizers()
                                .endMetadata()
                                .build())),
            false,
            NONE),
        new Case(
            "the GC removed the pod's owner reference",
            h -> {
              Pod p = withFinalizer(h);
              Pod orphaned =
                  new PodBuilder(p)
                      .editMetadata()
                      .withOwnerReferences()
                      .withResourceVersion("x")
                      .endMetadata()
                      .build();
              h.controller().updatePod(p, orphaned);
            },
            true,
            NONE),
        new Case(
            "a pod of a running Job",
            h -> {
              Pod p = withFinalizer(h);
              h.controller().updatePod(p, terminated(p));
            },
            false,
            Map.of("add", 1.0, "delete", 0.0)),
        new Case(
            "a pod of a Job that is gone is deleted",
            h -> {
              Pod p = withFinalizer(h);
              h.jobs.remove(h.job);
              h.controller().deletePod(p, true);
            },
            true,
            NONE),
        new Case(
            "a terminated pod of a finished Job is deleted",
            h -> {
              Pod p = terminated(withFinalizer(h));
              h.jobs.put(complete(h.job));
              h.controller().addPod(p);
              h.controller().deletePod(p, true);
            },
            true,
            Map.of("add", 1.0, "delete", 1.0)),
        new Case(
            "the finalizer of a terminated pod is removed",
            h -> {
              Pod p = withFinalizer(h);
              Pod t = terminated(p);
              h.controller().updatePod(p, t);
              h.controller().updatePod(t, noFinalizer(t));
            },
            false,
            Map.of("add", 1.0, "delete", 1.0)),
        new Case(
            "the Job is deleted with its pods orphaned",
            h -> {
              withFinalizer(h);
              h.controller().deleteJob(h.job);
            },
            true,
            NONE),
        new Case(
            "the Job finished while a pod kept the finalizer",
            h -> {
              withFinalizer(h);
              h.controller().updateJob(h.job, complete(h.job));
            },
            true,
            NONE),
        new Case(
            "the Job is deleted after its pods lost the finalizer",
            h -> {
              Pod p = withFinalizer(h);
              h.pods.put(noFinalizer(p));
              h.controller().deleteJob(h.job);
            },
            false,
            NONE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void events(Case c, KubernetesClient client) {
    Harness h = new Harness(client);
    h.job(Harness.job(2, 1).build());
    c.events().accept(h);
    assertThat(h.orphanQueue.state().ready())
        .isEqualTo(c.orphanQueued() ? List.of(h.ns + "/p") : List.of());
    assertThat(
            Map.of(
                "add", h.metrics.terminatedPodsTrackingFinalizer.labelValues("add").get(),
                "delete", h.metrics.terminatedPodsTrackingFinalizer.labelValues("delete").get()))
        .isEqualTo(c.fin());
  }
}
