package io.jdra.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.workqueue.MockQueue;
import io.jdra.testing.apiserver.WithApiServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Job controller's Job event handler, as upstream's {@code updateJob}. */
@WithApiServer
class JobEventsTest {
  @Test
  void statusUpdateIsBatchedAndSpecChangeSyncsAtOnce(KubernetesClient client) {
    Harness h = new Harness(client);
    Job old = h.job(Harness.job(2, 1).build());
    Job statusWritten =
        new JobBuilder(old)
            .editMetadata()
            .withResourceVersion("2")
            .endMetadata()
            .withNewStatus()
            .withActive(1)
            .endStatus()
            .build();
    h.controller().updateJob(old, statusWritten);
    assertThat(h.queue.state().ready()).isEmpty();
    assertThat(h.queue.state().later())
        .containsExactly(
            new MockQueue.Delayed<>(h.ns + "/pi", JobController.SYNC_JOB_BATCH_PERIOD));

    Job specChanged =
        new JobBuilder(statusWritten)
            .editMetadata()
            .withGeneration(old.getMetadata().getGeneration() + 1)
            .endMetadata()
            .editSpec()
            .withParallelism(2)
            .endSpec()
            .build();
    h.controller().updateJob(statusWritten, specChanged);
    assertThat(h.queue.state().ready()).isEqualTo(List.of(h.ns + "/pi"));
  }

  /** Upstream's {@code updateJob}: a changed activeDeadlineSeconds is looked at when it passes. */
  @Test
  void aChangedActiveDeadlineSyncsWhenItPasses(KubernetesClient client) {
    Harness h = new Harness(client);
    Job old =
        h.job(
            Harness.job(1, 1)
                .editSpec()
                .withActiveDeadlineSeconds(100L)
                .endSpec()
                .withNewStatus()
                .withStartTime(Harness.T0.toString())
                .endStatus()
                .build());
    h.clock.step(java.time.Duration.ofSeconds(10));
    Job shortened =
        new JobBuilder(old)
            .editMetadata()
            .withGeneration(old.getMetadata().getGeneration() + 1)
            .endMetadata()
            .editSpec()
            .withActiveDeadlineSeconds(60L)
            .endSpec()
            .build();
    h.controller().updateJob(old, shortened);
    assertThat(h.queue.state().later())
        .containsExactly(new MockQueue.Delayed<>(h.ns + "/pi", java.time.Duration.ofSeconds(50)));
    assertThat(h.queue.state().ready()).containsExactly(h.ns + "/pi");
  }
}
