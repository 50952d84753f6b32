package io.jdra.controllers.ttlafterfinished;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.workqueue.MockQueue;
import io.jdra.testing.apiserver.WithApiServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The TTL-after-finished controller's sync on a fake clock and a mock queue against the embedded
 * API server (which alone keeps a Job deleted in the foreground, with its finalizer, so the
 * deletion is visible): a Job is deleted once its TTL after finishing has passed, queued for then
 * before, decided again on the live Job, and left alone without a TTL or unfinished.
 */
@WithApiServer
class TtlAfterFinishedControllerTest {
  static final Instant FINISHED = Instant.parse("2026-01-01T00:00:00Z");

  final FakeClock clock = new FakeClock(FINISHED);
  final Ctx ctx = Ctx.forTest(clock);
  final MockQueue<String> queue = new MockQueue<>();
  final CacheImpl<Job> cache = new CacheImpl<>();
  final String ns = "ttl-" + UUID.randomUUID().toString().substring(0, 8);

  TtlAfterFinishedController controller(KubernetesClient client) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    return new TtlAfterFinishedController(
        client, Lister.of(cache), queue, clock, new PrometheusRegistry(), () -> true);
  }

  Job job(KubernetesClient client, Integer ttl, boolean finished) {
    Job created =
        client
            .batch()
            .v1()
            .jobs()
            .inNamespace(ns)
            .resource(
                new JobBuilder()
                    .withNewMetadata()
                    .withName("pi")
                    .endMetadata()
                    .withNewSpec()
                    .withTtlSecondsAfterFinished(ttl)
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
                    .build())
            .create();
    if (finished) {
      created =
          client
              .batch()
              .v1()
              .jobs()
              .inNamespace(ns)
              .resource(
                  new JobBuilder(created)
                      .withNewStatus()
                      .withStartTime(FINISHED.minusSeconds(5).toString())
                      .withCompletionTime(FINISHED.toString())
                      .withSucceeded(1)
                      .addNewCondition()
                      .withType("SuccessCriteriaMet")
                      .withStatus("True")
                      .withReason("CompletionsReached")
                      .withLastTransitionTime(FINISHED.toString())
                      .endCondition()
                      .addNewCondition()
                      .withType("Complete")
                      .withStatus("True")
                      .withReason("CompletionsReached")
                      .withLastTransitionTime(FINISHED.toString())
                      .endCondition()
                      .endStatus()
                      .build())
              .updateStatus();
    }
    cache.put(created);
    return created;
  }

  Job server(KubernetesClient client) {
    return client.batch().v1().jobs().inNamespace(ns).withName("pi").get();
  }

  @Test
  void waitsForTheTtlThenDeletesInTheForeground(KubernetesClient client) {
    TtlAfterFinishedController c = controller(client);
    Job job = job(client, 60, true);
    c.enqueueIfNeeded(ctx, job);
    assertThat(queue.state().ready()).containsExactly(ns + "/pi");

    clock.step(Duration.ofSeconds(10));
    c.syncHandler(ctx, ns + "/pi");
    assertThat(server(client).getMetadata().getDeletionTimestamp()).isNull();
    assertThat(queue.state().later())
        .containsExactly(new MockQueue.Delayed<>(ns + "/pi", Duration.ofSeconds(50)));

    clock.step(Duration.ofSeconds(50));
    c.syncHandler(ctx, ns + "/pi");
    Job deleting = server(client);
    assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(deleting.getMetadata().getFinalizers()).contains("foregroundDeletion");
  }

  @Test
  void decidesAgainOnTheLiveJob(KubernetesClient client) {
    TtlAfterFinishedController c = controller(client);
    Job cached = job(client, 60, true);
    // Raised meanwhile; the cache has not seen it.
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace(ns)
        .withName("pi")
        .edit(j -> new JobBuilder(j).editSpec().withTtlSecondsAfterFinished(600).endSpec().build());
    cache.put(cached);
    clock.step(Duration.ofSeconds(120));
    c.syncHandler(ctx, ns + "/pi");
    assertThat(server(client).getMetadata().getDeletionTimestamp()).isNull();
    assertThat(queue.state().later())
        .containsExactly(new MockQueue.Delayed<>(ns + "/pi", Duration.ofSeconds(480)));
  }

  @Test
  void leavesJobsWithoutTtlOrUnfinished(KubernetesClient client) {
    TtlAfterFinishedController c = controller(client);
    Job noTtl = job(client, null, true);
    c.enqueueIfNeeded(ctx, noTtl);
    Job running =
        new JobBuilder(noTtl)
            .editSpec()
            .withTtlSecondsAfterFinished(0)
            .endSpec()
            .withStatus(null)
            .build();
    c.enqueueIfNeeded(ctx, running);
    assertThat(queue.state().ready()).isEmpty();
    clock.step(Duration.ofHours(1));
    c.syncHandler(ctx, ns + "/pi");
    assertThat(server(client).getMetadata().getDeletionTimestamp()).isNull();
    assertThat(queue.state().later()).isEqualTo(List.of());
  }
}
