package io.jdra.controllers.job;

import static io.jdra.controllers.job.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.controllers.controllerutil.PodControl;
import io.jdra.testing.apiserver.WithApiServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Job controller's metrics as upstream's job_controller_test.go checks them ({@code
 * TestJobPodsFinished}, {@code TestJobFinishedNumReason}, {@code TestSyncJobPastDeadline} metrics
 * parts, {@code TestJobPodsCreationTotal}): each case runs syncs against the embedded API server,
 * the caches catching up in between, and compares the samples it expects with the registry's
 * exposition.
 */
@WithApiServer
class JobMetricsTest {
  record Case(String name, Consumer<Harness> given, int syncs, Map<String, Double> samples) {
    @Override
    public String toString() {
      return name;
    }
  }

  static final String NON_INDEXED_OK = "completion_mode=\"NonIndexed\",result=\"success\"";

  static String syncs(String action, String labels) {
    return "job_controller_job_syncs_total{action=\"" + action + "\"," + labels + "}";
  }

  static String created(String reason, String status) {
    return "job_controller_job_pods_creation_total{reason=\""
        + reason
        + "\",status=\""
        + status
        + "\"}";
  }

  static String podsFinished(String mode, String result) {
    return "job_controller_job_pods_finished_total{completion_mode=\""
        + mode
        + "\",result=\""
        + result
        + "\"}";
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "a new Job creates its pods",
            h -> h.job(Harness.job(3, 2).build()),
            1,
            Map.of(
                syncs("pods_created", NON_INDEXED_OK),
                1.0,
                "job_controller_job_sync_duration_seconds_count{action=\"pods_created\","
                    + NON_INDEXED_OK
                    + "}",
                1.0,
                created("new", "succeeded"),
                2.0)),
        new Case(
            "a finished pod is counted and the Job completes",
            h -> {
              h.job(Harness.job(1, 1).build());
              h.pod(h.pod("a").withStatus(Harness.finished(true, 0, T0)).build());
            },
            1,
            Map.of(
                syncs("tracking", NON_INDEXED_OK),
                1.0,
                podsFinished("NonIndexed", "succeeded"),
                1.0,
                podsFinished("NonIndexed", "failed"),
                0.0,
                "job_controller_jobs_finished_total{completion_mode=\"NonIndexed\","
                    + "reason=\"CompletionsReached\",result=\"succeeded\"}",
                1.0)),
        new Case(
            "backoffLimit exceeded: the running pod counts as failed, then the Job fails",
            h -> {
              h.job(Harness.job(1, 2).editSpec().withBackoffLimit(0).endSpec().build());
              h.pod(h.pod("a").withStatus(Harness.finished(false, 1, T0)).build());
              h.pod(h.pod("b").withStatus(Harness.running()).build());
            },
            2,
            Map.of(
                // The first sync deletes the running pod: manageJob is not called.
                syncs("reconciling", NON_INDEXED_OK),
                2.0,
                podsFinished("NonIndexed", "failed"),
                2.0,
                "job_controller_jobs_finished_total{completion_mode=\"NonIndexed\","
                    + "reason=\"BackoffLimitExceeded\",result=\"failed\"}",
                1.0)),
        new Case(
            "a failed pod is replaced after its backoff",
            h -> {
              h.job(Harness.job(1, 1).build());
              h.pod(h.pod("a").withStatus(Harness.finished(false, 1, T0)).build());
              h.clock.setTime(T0.plusSeconds(10));
            },
            1,
            Map.of(
                created("recreate_terminating_or_failed", "succeeded"), 1.0,
                podsFinished("NonIndexed", "failed"), 1.0)),
        new Case(
            "podFailurePolicy: the matched rule's action is counted",
            h -> {
              h.job(
                  Harness.job(1, 1)
                      .editSpec()
                      .withNewPodFailurePolicy()
                      .addNewRule()
                      .withAction("Ignore")
                      .addNewOnPodCondition()
                      .withType("DisruptionTarget")
                      .withStatus("True")
                      .endOnPodCondition()
                      .endRule()
                      .endPodFailurePolicy()
                      .endSpec()
                      .build());
              h.pod(
                  h.pod("a")
                      .withStatus(
                          new PodStatusBuilder(Harness.finished(false, 137, T0))
                              .addNewCondition()
                              .withType("DisruptionTarget")
                              .withStatus("True")
                              .endCondition()
                              .build())
                      .build());
              h.clock.setTime(T0.plusSeconds(10));
            },
            1,
            Map.of(
                "job_controller_pod_failures_handled_by_failure_policy_total{action=\"Ignore\"}",
                1.0,
                podsFinished("NonIndexed", "failed"),
                0.0,
                // An ignored failure does not count: the replacement is a new pod.
                created("new", "succeeded"),
                1.0)),
        new Case(
            "expectations not yet satisfied: reconciling",
            h -> {
              h.job(Harness.job(2, 1).build());
              h.expectations.expectCreations(h.ns + "/pi", 1);
            },
            1,
            Map.of(syncs("reconciling", NON_INDEXED_OK), 1.0)),
        new Case(
            "a pod creation fails: the sync errs",
            h -> {
              h.job(Harness.job(1, 1).build());
              h.podControl = new FailingCreate(h.podControl);
            },
            1,
            Map.of(
                syncs("pods_created", "completion_mode=\"NonIndexed\",result=\"error\""),
                1.0,
                created("new", "failed"),
                1.0)),
        new Case(
            "an Indexed Job counts finished indexes",
            h -> {
              h.job(Harness.job(2, 2).editSpec().withCompletionMode("Indexed").endSpec().build());
              h.sync();
              h.catchUp();
              h.expectations.creationObserved(h.ns + "/pi");
              h.expectations.creationObserved(h.ns + "/pi");
              for (Pod p : h.serverPods()) {
                h.setPodStatus(p.getMetadata().getName(), Harness.finished(true, 0, T0));
              }
            },
            2,
            Map.of(
                "job_controller_job_finished_indexes_total{backoffLimit=\"global\","
                    + "status=\"succeeded\"}",
                2.0,
                podsFinished("Indexed", "succeeded"),
                2.0,
                "job_controller_jobs_finished_total{completion_mode=\"Indexed\","
                    + "reason=\"CompletionsReached\",result=\"succeeded\"}",
                1.0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void samples(Case c, KubernetesClient client) throws IOException {
    Harness h = new Harness(client);
    c.given().accept(h);
    for (int i = 0; i < c.syncs(); i++) {
      try {
        h.sync();
      } catch (RuntimeException e) {
        // an erring sync is retried by the worker; its metrics are what the case checks
      }
      h.catchUp();
    }
    Map<String, Double> samples = samples(h.registry);
    c.samples().forEach((k, v) -> assertThat(samples.get(k)).as(k).isEqualTo(v));
  }

  @Test
  void externallyManagedJobsAreCountedAndNotSynced(KubernetesClient client) throws IOException {
    Harness h = new Harness(client);
    h.job(
        new JobBuilder(Harness.job(1, 1).build())
            .editSpec()
            .withManagedBy("example.com/multikueue")
            .endSpec()
            .build());
    h.controller().addJob(h.job);
    h.sync();
    Map<String, Double> samples = samples(h.registry);
    assertThat(
            samples.get(
                "job_controller_jobs_by_external_controller_total"
                    + "{controller_name=\"example.com/multikueue\"}"))
        .isEqualTo(1.0);
    assertThat(samples.keySet()).noneMatch(k -> k.startsWith("job_controller_job_syncs_total"));
    assertThat(h.serverPods()).isEmpty();
  }

  /** Names, types, labels, buckets and help as upstream registers them. */
  @Test
  void registeredAsUpstream() throws IOException {
    PrometheusRegistry r = new PrometheusRegistry();
    JobMetrics m = JobMetrics.create(r);
    m.recordSync("NonIndexed", true, "tracking", 0.005);
    // A metric with labels shows once it has a child, in Go as here.
    m.podFailuresHandledByFailurePolicy.labelValues("Count").inc();
    m.terminatedPodsTrackingFinalizer.labelValues("add").inc();
    String text = scrape(r);
    assertThat(text)
        .contains(
            "# HELP job_controller_job_sync_duration_seconds [STABLE] The time it took to sync a"
                + " job",
            "# TYPE job_controller_job_sync_duration_seconds histogram",
            "# TYPE job_controller_job_syncs_total counter",
            "job_controller_job_sync_duration_seconds_bucket{action=\"tracking\","
                + "completion_mode=\"NonIndexed\",result=\"success\",le=\"0.004\"} 0",
            "job_controller_job_sync_duration_seconds_bucket{action=\"tracking\","
                + "completion_mode=\"NonIndexed\",result=\"success\",le=\"0.008\"} 1",
            "job_controller_job_sync_duration_seconds_bucket{action=\"tracking\","
                + "completion_mode=\"NonIndexed\",result=\"success\",le=\"65.536\"} 1",
            "# HELP job_controller_pod_failures_handled_by_failure_policy_total [BETA] The number"
                + " of failed Pods handled by failure policy",
            "# HELP job_controller_terminated_pods_tracking_finalizer_total [BETA] The number of"
                + " terminated pods (phase=Failed|Succeeded) that have the finalizer"
                + " batch.kubernetes.io/job-tracking. The event label can be \"add\" or"
                + " \"delete\".",
            "job_controller_pod_failures_handled_by_failure_policy_total{action=\"Count\"} 1.0",
            "job_controller_terminated_pods_tracking_finalizer_total{event=\"add\"} 1.0");
    assertThat(JobMetrics.SYNC_DURATION_BUCKETS).hasSize(15);
    assertThat(m.syncs.labelValues("NonIndexed", "success", "tracking").get()).isEqualTo(1.0);
  }

  static String scrape(PrometheusRegistry r) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, r.scrape());
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The exposition's samples, {@code name{labels}} to value. */
  static Map<String, Double> samples(PrometheusRegistry r) throws IOException {
    Map<String, Double> out = new TreeMap<>();
    for (String line : scrape(r).split("\n")) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      out.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
    }
    return out;
  }

  /** Pod creation refused by the API server (a quota, say). */
  static final class FailingCreate implements PodControl {
    private final PodControl delegate;

    FailingCreate(PodControl delegate) {
      this.delegate = delegate;
    }

    @Override
    public Pod createPod(
        String namespace,
        PodTemplateSpec template,
        HasMetadata controller,
        OwnerReference controllerRef,
        String generateName,
        List<String> finalizers) {
      throw new IllegalStateException("exceeded quota");
    }

    @Override
    public void deletePod(String namespace, String name, HasMetadata controller) {
      delegate.deletePod(namespace, name, controller);
    }
  }
}
