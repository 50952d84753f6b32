package io.jdra.controllers.job;

import static io.jdra.controllers.job.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.testing.apiserver.WithApiServer;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's orphan pod handling (job_controller_test.go {@code TestSyncOrphanPod} and the
 * finalizer cases of {@code TestWatchOrphanPods}): which pod events put a pod on the {@code
 * job_orphan_pod} queue, and which queued pods lose the tracking finalizer when the orphan worker
 * syncs them. Pods live in the embedded API server; the caches are filled by the case.
 */
@WithApiServer
class OrphanPodsTest {
  static final String OTHER_FINALIZER = "example.com/keep";

  /** A pod of the case's Job ({@code job}) or of nothing; {@code finalizers} as given. */
  record Case(
      String name, Function<Harness, Job> job, Function<Harness, PodBuilder> pod, boolean removed) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Job running(Harness h) {
    return h.job(Harness.job(2, 1).build());
  }

  static Job finished(Harness h) {
    return h.job(
        Harness.job(1, 1)
            .withStatus(
                new JobStatusBuilder()
                    .withSucceeded(1)
                    .addNewCondition()
                    .withType("Complete")
                    .withStatus("True")
                    .endCondition()
                    .build())
            .build());
  }

  /** A Job that is gone: the pod's reference names a UID the cache does not have. */
  static Job deleted(Harness h) {
    Job j = running(h);
    h.jobs.remove(j);
    return j;
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("no controller reference: finalizer removed", h -> null, Harness::orphan, true),
        new Case(
            "the Job is gone: finalizer removed", OrphanPodsTest::deleted, h -> h.pod("p"), true),
        new Case(
            "the Job finished: finalizer removed", OrphanPodsTest::finished, h -> h.pod("p"), true),
        new Case(
            "adopted by a running Job since it was queued: kept",
            OrphanPodsTest::running,
            h -> h.pod("p"),
            false),
        new Case(
            "Job managed by another controller: kept",
            h ->
                h.job(
                    new JobBuilder(Harness.job(1, 1).build())
                        .editSpec()
                        .withManagedBy("example.com/multikueue")
                        .endSpec()
                        .build()),
            h -> h.pod("p"),
            false),
        new Case(
            "controlled by something other than a batch/v1 Job: kept",
            h -> null,
            h ->
                Harness.orphan(h)
                    .editMetadata()
                    .addToOwnerReferences(
                        new OwnerReferenceBuilder()
                            .withApiVersion("apps/v1")
                            .withKind("ReplicaSet")
                            .withName("rs")
                            .withUid("rs-uid")
                            .withController(true)
                            .build())
                    .endMetadata(),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void syncOrphanPod(Case c, KubernetesClient client) {
    Harness h = new Harness(client);
    c.job().apply(h);
    Pod p =
        h.pod(
            c.pod()
                .apply(h)
                .editMetadata()
                .addToFinalizers(OTHER_FINALIZER)
                .endMetadata()
                .withStatus(Harness.finished(true, 0, T0))
                .build());
    h.controller().syncOrphan(h.ctx, h.ns + "/" + p.getMetadata().getName());
    List<String> finalizers =
        client.pods().inNamespace(h.ns).withName("p").get().getMetadata().getFinalizers();
    if (c.removed()) {
      assertThat(finalizers).containsExactly(OTHER_FINALIZER);
    } else {
      assertThat(finalizers).containsExactly(JobUtil.JOB_TRACKING_FINALIZER, OTHER_FINALIZER);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("gonePods")
  void aPodGoneIsNoError(String name, boolean inCache, KubernetesClient client) {
    Harness h = new Harness(client);
    Pod p = h.pod(Harness.orphan(h).build());
    if (!inCache) {
      h.pods.remove(p);
    }
    client
        .pods()
        .inNamespace(h.ns)
        .withName("p")
        .edit(x -> new PodBuilder(x).editMetadata().withFinalizers().endMetadata().build());
    client.pods().inNamespace(h.ns).withName("p").delete();
    h.controller().syncOrphan(h.ctx, h.ns + "/p");
  }

  static Stream<Arguments> gonePods() {
    return Stream.of(
        Arguments.of("gone from cache and server", false),
        Arguments.of("gone from the server only (404)", true));
  }
}
