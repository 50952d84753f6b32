package io.jdra.controllers.manager;

import static io.jdra.controllers.manager.WorkloadTestSupport.livePods;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.WithApiServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The Job controller in the manager against the embedded API server, the kubelet's part (pods
 * finishing) played by the test: completions 3 with parallelism 2 never runs more than 2 pods and
 * completes (SuccessCriteriaMet, then Complete); a Job whose pods keep failing fails with
 * BackoffLimitExceeded once backoffLimit is exceeded; counted pods lose the tracking finalizer, and
 * so do orphan pods; {@code /metrics} shows the {@code job_controller_*} metrics.
 */
@WithApiServer
class JobControllerIntegrationTest {
  static final Duration WAIT = Duration.ofSeconds(60);

  static Job job(String name, int completions, int parallelism, int backoffLimit) {
    return new JobBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withCompletions(completions)
        .withParallelism(parallelism)
        .withBackoffLimit(backoffLimit)
        .withNewTemplate()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("c")
        .withImage("busybox")
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  @Test
  void completesWithCompletionsAndParallelism(KubernetesClient client) throws Exception {
    String ns = "job-complete";
    WorkloadTestSupport.namespace(client, ns);
    ControllerManager.Handle mgr = WorkloadTestSupport.start(client, "job");
    try {
      client.batch().v1().jobs().inNamespace(ns).resource(job("pi", 3, 2, 6)).create();
      AtomicInteger maxRunning = new AtomicInteger();
      await()
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(100))
          .until(() -> {
            List<Pod> running = livePods(client, ns).stream().filter(p -> !isFinished(p)).toList();
            maxRunning.accumulateAndGet(running.size(), Math::max);
            long done = livePods(client, ns).stream().filter(p -> isFinished(p)).count();
            // Finish pods only once the controller ran as many as it may, to see parallelism.
            if (running.size() >= Math.min(2, 3 - done)) {
              running.forEach(p -> WorkloadTestSupport.markFinished(client, p, 0));
            }
            return isTrue(get(client, ns, "pi"), "Complete");
          });
      // On failure, each assertion prints the Job's status, its pods and the events: a pod counted
      // twice shows as succeeded above the succeeded pods, a surplus pod as a SuccessfulDelete.
      Supplier<String> world = () -> world(client, ns);
      assertThat(maxRunning.get())
          .as(() -> "most pods running at once\n" + world.get())
          .isEqualTo(2);
      Job done = get(client, ns, "pi");
      List<Pod> pods = client.pods().inNamespace(ns).list().getItems();
      assertThat(pods)
          .as(() -> "3 pods, all succeeded, none deleted\n" + world.get())
          .hasSize(3)
          .allSatisfy(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Succeeded"));
      assertThat(done.getStatus().getSucceeded())
          .as(() -> "status.succeeded counts each succeeded pod once\n" + world.get())
          .isEqualTo(3);
      assertThat(done.getStatus().getFailed()).isIn(null, 0);
      assertThat(done.getStatus().getActive()).isIn(null, 0);
      assertThat(done.getStatus().getCompletionTime()).isNotNull();
      assertThat(done.getStatus().getStartTime()).isNotNull();
      assertThat(done.getStatus().getConditions())
          .extracting(JobCondition::getType)
          .containsExactly("SuccessCriteriaMet", "Complete");
      assertThat(condition(done, "Complete").getReason()).isEqualTo("CompletionsReached");
      assertThat(pods)
          .allSatisfy(p -> {
            assertThat(p.getMetadata().getFinalizers())
                .doesNotContain("batch.kubernetes.io/job-tracking");
            assertThat(p.getMetadata().getLabels())
                .containsEntry("batch.kubernetes.io/job-name", "pi")
                .containsEntry("batch.kubernetes.io/controller-uid", done.getMetadata().getUid());
            assertThat(p.getMetadata().getName()).startsWith("pi-");
          });
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> assertThat(reasons(client, ns)).contains("SuccessfulCreate", "Completed"));
    } finally {
      mgr.stop();
    }
  }

  @Test
  void failsWhenBackoffLimitIsExceeded(KubernetesClient client) throws Exception {
    String ns = "job-backoff";
    WorkloadTestSupport.namespace(client, ns);
    ControllerManager.Handle mgr = WorkloadTestSupport.start(client, "job");
    try {
      client.batch().v1().jobs().inNamespace(ns).resource(job("flaky", 1, 1, 1)).create();
      await()
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(100))
          .until(() -> {
            // Failed a minute ago, so the controller's replacement backoff (10 s) has passed.
            livePods(client, ns).stream()
                .filter(p -> !isFinished(p))
                .forEach(p ->
                    WorkloadTestSupport.markFinished(client, p, 1, Instant.now().minusSeconds(60)));
            return isTrue(get(client, ns, "flaky"), "Failed");
          });
      Job failed = get(client, ns, "flaky");
      assertThat(failed.getStatus().getFailed()).isEqualTo(2);
      assertThat(failed.getStatus().getConditions())
          .extracting(JobCondition::getType)
          .containsExactly("FailureTarget", "Failed");
      assertThat(condition(failed, "Failed").getReason()).isEqualTo("BackoffLimitExceeded");
      assertThat(condition(failed, "Failed").getMessage())
          .isEqualTo("Job has reached the specified backoff limit");
      assertThat(client.pods().inNamespace(ns).list().getItems())
          .hasSize(2)
          .allSatisfy(p ->
              assertThat(p.getMetadata().getFinalizers())
                  .doesNotContain("batch.kubernetes.io/job-tracking"));
      await()
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(reasons(client, ns)).contains("BackoffLimitExceeded"));
    } finally {
      mgr.stop();
    }
  }

  /**
   * An Indexed Job of 3 with parallelism 2 runs each index once (the test succeeds every pod it
   * sees), records {@code completedIndexes} 0-2 and completes; with {@code ttlSecondsAfterFinished:
   * 0} the ttl-after-finished controller then deletes it in the foreground, and the garbage
   * collector its pods first.
   */
  @Test
  void indexedJobCompletesAndIsDeletedAfterItsTtl(KubernetesClient client) throws Exception {
    String ns = "job-indexed";
    WorkloadTestSupport.namespace(client, ns);
    ControllerManager.Handle mgr =
        WorkloadTestSupport.startWithGc(client, "job", "ttl-after-finished");
    try {
      Job indexed =
          new JobBuilder(job("idx", 3, 2, 6))
              .editSpec()
              .withCompletionMode("Indexed")
              .withTtlSecondsAfterFinished(0)
              .endSpec()
              .build();
      client.batch().v1().jobs().inNamespace(ns).resource(indexed).create();
      java.util.Set<String> seenIndexes = new java.util.TreeSet<>();
      await()
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(100))
          .until(() -> {
            for (Pod p : livePods(client, ns)) {
              if (!isFinished(p)) {
                seenIndexes.add(
                    p.getMetadata().getAnnotations().get("batch.kubernetes.io/job-completion-index")
                        + "@"
                        + p.getSpec().getHostname());
                WorkloadTestSupport.markFinished(client, p, 0);
              }
            }
            Job j = get(client, ns, "idx");
            return j == null
                || j.getStatus() != null && "0-2".equals(j.getStatus().getCompletedIndexes());
          });
      assertThat(seenIndexes).containsExactly("0@idx-0", "1@idx-1", "2@idx-2");
      await()
          .atMost(WAIT)
          .until(() ->
              get(client, ns, "idx") == null
                  && client.pods().inNamespace(ns).list().getItems().isEmpty());
    } finally {
      mgr.stop();
    }
  }

  /**
   * After a Job completes, the manager's {@code /metrics} shows upstream's {@code job_controller_*}
   * samples for it: the finished Job with its reason, the pod it counted, the pods it created, and
   * its syncs.
   */
  @Test
  void metricsShowACompletedJob(KubernetesClient client) throws Exception {
    String ns = "job-metrics";
    WorkloadTestSupport.namespace(client, ns);
    ControllerManager.Handle mgr =
        ControllerManager.start(
            Ctx.background("controller-manager"),
            client,
            ControllerManagerOptions.defaults()
                .withControllers(List.of("job"))
                .withMetricsBindAddress("127.0.0.1:0"));
    try {
      client.batch().v1().jobs().inNamespace(ns).resource(job("once", 1, 1, 6)).create();
      await()
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(100))
          .until(() -> {
            livePods(client, ns).stream()
                .filter(p -> !isFinished(p))
                .forEach(p -> WorkloadTestSupport.markFinished(client, p, 0));
            return isTrue(get(client, ns, "once"), "Complete");
          });
      await()
          .atMost(WAIT)
          .untilAsserted(() ->
              assertThat(scrape(mgr.metricsPort()))
                  .contains(
                      "job_controller_jobs_finished_total{completion_mode=\"NonIndexed\","
                          + "reason=\"CompletionsReached\",result=\"succeeded\"} 1.0",
                      "job_controller_job_pods_finished_total{completion_mode=\"NonIndexed\","
                          + "result=\"succeeded\"} 1.0",
                      "job_controller_job_pods_creation_total{reason=\"new\","
                          + "status=\"succeeded\"} 1.0",
                      "job_controller_job_syncs_total{action=\"pods_created\","
                          + "completion_mode=\"NonIndexed\",result=\"success\"}",
                      "job_controller_terminated_pods_tracking_finalizer_total{event=\"add\"}",
                      "workqueue_adds_total{name=\"job\"}"));
    } finally {
      mgr.stop();
    }
  }

  /**
   * Pods that keep the tracking finalizer with no Job to count them lose it through the orphan
   * queue: one whose Job was deleted (Background, no garbage collector running, so the pod stays
   * with a reference to a Job that is gone) and one created with the finalizer and no owner.
   */
  @Test
  void orphanPodsLoseTheTrackingFinalizer(KubernetesClient client) throws Exception {
    String ns = "job-orphans";
    WorkloadTestSupport.namespace(client, ns);
    ControllerManager.Handle mgr = WorkloadTestSupport.start(client, "job");
    try {
      client.batch().v1().jobs().inNamespace(ns).resource(job("gone", 1, 1, 6)).create();
      await().atMost(WAIT).until(() -> livePods(client, ns).size() == 1);
      Pod running = livePods(client, ns).get(0);
      String jobPod = running.getMetadata().getName();
      assertThat(finalizers(client, ns, jobPod)).contains("batch.kubernetes.io/job-tracking");
      // status.ready counts the pod from the controller's cache: once it is 1 the controller has
      // seen the pod, so the Job's deletion (another watch) finds it there.
      WorkloadTestSupport.markRunning(client, running, true);
      await()
          .atMost(WAIT)
          .until(() -> Integer.valueOf(1).equals(get(client, ns, "gone").getStatus().getReady()));
      client.batch().v1().jobs().inNamespace(ns).withName("gone").delete();
      client
          .pods()
          .inNamespace(ns)
          .resource(
              new io.fabric8.kubernetes.api.model.PodBuilder()
                  .withNewMetadata()
                  .withName("stray")
                  .withFinalizers("batch.kubernetes.io/job-tracking")
                  .endMetadata()
                  .withNewSpec()
                  .addNewContainer()
                  .withName("c")
                  .withImage("busybox")
                  .endContainer()
                  .endSpec()
                  .build())
          .create();
      await()
          .atMost(WAIT)
          .untilAsserted(() -> {
            assertThat(finalizers(client, ns, jobPod)).as(jobPod).isEmpty();
            assertThat(finalizers(client, ns, "stray")).as("stray").isEmpty();
          });
    } finally {
      mgr.stop();
    }
  }

  static List<String> finalizers(KubernetesClient client, String ns, String pod) {
    Pod p = client.pods().inNamespace(ns).withName(pod).get();
    assertThat(p).as(pod).isNotNull();
    return p.getMetadata().getFinalizers();
  }

  static String scrape(int port) throws Exception {
    try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
      return http.send(
              java.net.http.HttpRequest.newBuilder(
                      java.net.URI.create("http://127.0.0.1:" + port + "/metrics"))
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString())
          .body();
    }
  }

  static boolean isFinished(Pod p) {
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  static Job get(KubernetesClient client, String ns, String name) {
    return client.batch().v1().jobs().inNamespace(ns).withName(name).get();
  }

  static JobCondition condition(Job job, String type) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return null;
    }
    return job.getStatus().getConditions().stream()
        .filter(c -> c.getType().equals(type))
        .findFirst()
        .orElse(null);
  }

  static boolean isTrue(Job job, String type) {
    JobCondition c = condition(job, type);
    return c != null && "True".equals(c.getStatus());
  }

  /** The Job's status, its pods and the namespace's events, for a failure message. */
  static String world(KubernetesClient client, String ns) {
    StringBuilder b = new StringBuilder();
    for (Job j : client.batch().v1().jobs().inNamespace(ns).list().getItems()) {
      b.append("job ").append(j.getMetadata().getName()).append(" status ").append(j.getStatus());
    }
    for (Pod p : client.pods().inNamespace(ns).list().getItems()) {
      b.append("\npod ")
          .append(p.getMetadata().getName())
          .append(" uid=")
          .append(p.getMetadata().getUid())
          .append(" phase=")
          .append(p.getStatus() == null ? null : p.getStatus().getPhase())
          .append(" finalizers=")
          .append(p.getMetadata().getFinalizers())
          .append(" deletionTimestamp=")
          .append(p.getMetadata().getDeletionTimestamp());
    }
    for (Event e : client.resources(Event.class).inNamespace(ns).list().getItems()) {
      b.append("\nevent ").append(e.getReason()).append(": ").append(e.getNote());
    }
    return b.toString();
  }

  static List<String> reasons(KubernetesClient client, String ns) {
    return client.resources(Event.class).inNamespace(ns).list().getItems().stream()
        .map(Event::getReason)
        .distinct()
        .toList();
  }
}
