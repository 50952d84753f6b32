package io.jdra.controllers.job;

import static io.jdra.controllers.job.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.PodControl;
import io.jdra.runtime.workqueue.MockQueue;
import io.jdra.testing.apiserver.WithApiServer;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * syncJob as upstream's job_controller_test.go: pods created up to parallelism with the tracking
 * finalizer, finished pods counted through uncountedTerminatedPods, success and failure through
 * their interim conditions, backoff delays, pod failure policy, active deadline, excess pods and
 * adoption. Writes go to the embedded API server; reads come from caches the case fills; time is a
 * fake clock.
 */
@WithApiServer
class SyncJobTest {
  record Case(String name, Consumer<Harness> given, Consumer<Harness> then) {
    @Override
    public String toString() {
      return name;
    }
  }

  static JobCondition condition(Job job, String type) {
    return JobUtil.condition(job, type);
  }

  static List<String> types(Job job) {
    return job.getStatus().getConditions().stream().map(JobCondition::getType).toList();
  }

  static long withFinalizer(Harness h) {
    return h.serverPods().stream().filter(JobUtil::hasTrackingFinalizer).count();
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "creates parallelism pods with the tracking finalizer, owner and job labels",
            h -> h.job(Harness.job(3, 2).build()),
            h -> {
              Job job = h.serverJob();
              List<Pod> pods = h.serverPods();
              assertThat(pods).hasSize(2);
              assertThat(pods)
                  .allSatisfy(p -> {
                    assertThat(p.getMetadata().getName()).startsWith("pi-");
                    assertThat(p.getMetadata().getFinalizers())
                        .contains("batch.kubernetes.io/job-tracking");
                    assertThat(p.getMetadata().getLabels())
                        .containsEntry("batch.kubernetes.io/job-name", "pi")
                        .containsEntry(
                            "batch.kubernetes.io/controller-uid", job.getMetadata().getUid());
                    assertThat(OwnerRefs.controllerOf(p).getUid())
                        .isEqualTo(job.getMetadata().getUid());
                  });
              assertThat(job.getStatus().getActive()).isEqualTo(2);
              assertThat(job.getStatus().getReady()).isZero();
              assertThat(job.getStatus().getStartTime()).isEqualTo("2026-01-01T00:00:00Z");
              assertThat(h.events.strings())
                  .hasSize(2)
                  .allMatch(e -> e.startsWith("Normal SuccessfulCreate Created pod: pi-"));
            }),
        new Case(
            "finished pods are counted once: uncounted, finalizer removed, then counters",
            h -> {
              h.job(Harness.job(3, 2).build());
              h.pod(h.pod("a").withStatus(Harness.finished(true, 0, T0)).build());
              h.pod(h.pod("b").withStatus(Harness.running()).build());
            },
            h -> {
              Job job = h.serverJob();
              assertThat(job.getStatus().getSucceeded()).isEqualTo(1);
              assertThat(job.getStatus().getUncountedTerminatedPods().getSucceeded()).isEmpty();
              assertThat(job.getStatus().getActive()).isEqualTo(2);
              assertThat(job.getStatus().getReady()).isEqualTo(1);
              Pod a = h.client.pods().inNamespace(h.ns).withName("a").get();
              assertThat(a.getMetadata().getFinalizers())
                  .doesNotContain(JobUtil.JOB_TRACKING_FINALIZER);
              // A second sync before the pod informer shows the finalizer gone counts nothing
              // twice (the Job informer caught up).
              h.jobs.put(h.serverJob());
              h.sync();
              assertThat(h.serverJob().getStatus().getSucceeded()).isEqualTo(1);
            }),
        new Case(
            "a finalizer removal the informer shows during a sync does not count the pod again",
            h -> {
              h.job(Harness.job(4, 2).build());
              h.pod(h.pod("a").withStatus(Harness.finished(true, 0, T0)).build());
              h.pod(h.pod("b").withStatus(Harness.running()).build());
            },
            h -> {
              // The first sync counted a, removed its finalizer and created a pod; the informers
              // show the Job and the new pod, not yet a without finalizer.
              assertThat(h.serverJob().getStatus().getSucceeded()).isEqualTo(1);
              h.jobs.put(h.serverJob());
              for (Pod p : h.serverPods()) {
                if (h.pods.getByKey(h.ns + "/" + p.getMetadata().getName()) == null) {
                  h.pods.put(p);
                  h.controller().addPod(p);
                }
              }
              h.setPodStatus("b", Harness.finished(true, 0, T0));
              // b's success makes the next sync create a pod; while it does, the informer
              // delivers a's update: the sync's pod list still shows a with the finalizer.
              h.podControl = new DuringCreate(h.podControl, () -> h.deliverPodUpdate("a"));
              h.sync();
              Job job = h.serverJob();
              assertThat(job.getStatus().getSucceeded())
                  .as("succeeded counts a and b once each")
                  .isEqualTo(2);
              assertThat(job.getStatus().getUncountedTerminatedPods().getSucceeded()).isEmpty();
              assertThat(h.serverPods()).hasSize(4);
            }),
        new Case(
            "all completions succeeded: SuccessCriteriaMet, then Complete with completionTime",
            h -> {
              h.job(Harness.job(2, 2).build());
              h.pod(h.pod("a").withStatus(Harness.finished(true, 0, T0)).build());
              h.pod(h.pod("b").withStatus(Harness.finished(true, 0, T0)).build());
              h.clock.step(Duration.ofSeconds(5));
            },
            h -> {
              Job job = h.serverJob();
              assertThat(types(job)).containsExactly("SuccessCriteriaMet", "Complete");
              assertThat(condition(job, "Complete").getReason()).isEqualTo("CompletionsReached");
              assertThat(condition(job, "Complete").getMessage())
                  .isEqualTo("Reached expected number of succeeded pods");
              assertThat(job.getStatus().getSucceeded()).isEqualTo(2);
              assertThat(job.getStatus().getCompletionTime()).isEqualTo("2026-01-01T00:00:05Z");
              assertThat(withFinalizer(h)).isZero();
              assertThat(h.events.strings()).containsExactly("Normal Completed Job completed");
            }),
        new Case(
            "SuccessCriteriaMet waits for Complete while a pod creation is not seen yet",
            h -> {
              h.job(
                  Harness.job(2, 2)
                      .withStatus(
                          new JobStatusBuilder()
                              .withSucceeded(2)
                              .addNewCondition()
                              .withType("SuccessCriteriaMet")
                              .withStatus("True")
                              .withReason("CompletionsReached")
                              .endCondition()
                              .build())
                      .build());
              h.expectations.expectCreations(h.ns + "/pi", 1);
            },
            h -> {
              assertThat(types(h.serverJob())).containsExactly("SuccessCriteriaMet");
              h.expectations.creationObserved(h.ns + "/pi");
              h.catchUp();
              h.sync();
              assertThat(types(h.serverJob())).containsExactly("SuccessCriteriaMet", "Complete");
            }),
        new Case(
            "a finalizer removal that finds the pod gone is not expected to be seen",
            h -> {
              h.job(Harness.job(2, 1).build());
              h.pod(h.pod("a").withStatus(Harness.finished(true, 0, T0)).build());
              // Gone from the server, still in the cache.
              h.client
                  .pods()
                  .inNamespace(h.ns)
                  .withName("a")
                  .edit(p -> {
                    p.getMetadata().setFinalizers(List.of());
                    return p;
                  });
              h.client.pods().inNamespace(h.ns).withName("a").delete();
            },
            h -> {
              assertThat(h.serverJob().getStatus().getSucceeded()).isEqualTo(1);
              assertThat(h.finalizers.expectedUids(h.ns + "/pi")).isEmpty();
            }),
        new Case(
            "backoffLimit exceeded: FailureTarget, active pods deleted, then Failed",
            h -> {
              h.job(Harness.job(1, 2).editSpec().withBackoffLimit(0).endSpec().build());
              h.pod(h.pod("a").withStatus(Harness.finished(false, 1, T0)).build());
              h.pod(h.pod("b").withStatus(Harness.running()).build());
            },
            h -> {
              Job job = h.serverJob();
              assertThat(types(job)).containsExactly("FailureTarget");
              assertThat(condition(job, "FailureTarget").getReason())
                  .isEqualTo("BackoffLimitExceeded");
              // The running pod was deleted and, the Job being finished, counted as failed.
              assertThat(job.getStatus().getFailed()).isEqualTo(2);
              assertThat(withFinalizer(h)).isZero();
              h.catchUp();
              h.sync();
              job = h.serverJob();
              assertThat(types(job)).containsExactly("FailureTarget", "Failed");
              JobCondition failed = condition(job, "Failed");
              assertThat(failed.getReason()).isEqualTo("BackoffLimitExceeded");
              assertThat(failed.getMessage())
                  .isEqualTo("Job has reached the specified backoff limit");
              assertThat(job.getStatus().getCompletionTime()).isNull();
              assertThat(h.events.strings())
                  .contains(
                      "Warning BackoffLimitExceeded Job has reached the specified backoff limit");
            }),
        new Case(
            "a failed pod is replaced only after 10 s of backoff",
            h -> {
              h.job(Harness.job(1, 1).build());
              h.pod(h.pod("a").withStatus(Harness.finished(false, 1, T0)).build());
              h.clock.setTime(T0.plusSeconds(3));
            },
            h -> {
              assertThat(h.serverJob().getStatus().getFailed()).isEqualTo(1);
              assertThat(h.serverPods()).hasSize(1);
              assertThat(h.queue.state().later())
                  .contains(new MockQueue.Delayed<>(h.ns + "/pi", Duration.ofSeconds(7)));
              h.clock.setTime(T0.plusSeconds(10));
              h.catchUp();
              h.sync();
              assertThat(h.serverPods()).hasSize(2);
            }),
        new Case(
            "podFailurePolicy FailJob on an exit code fails the Job with upstream's message",
            h -> {
              h.job(
                  Harness.job(1, 1)
                      .editSpec()
                      .withNewPodFailurePolicy()
                      .addNewRule()
                      .withAction("FailJob")
                      .withNewOnExitCodes()
                      .withOperator("In")
                      .withValues(42)
                      .endOnExitCodes()
                      .endRule()
                      .endPodFailurePolicy()
                      .endSpec()
                      .build());
              h.pod(h.pod("a").withStatus(Harness.finished(false, 42, T0)).build());
            },
            h -> {
              JobCondition c = condition(h.serverJob(), "FailureTarget");
              assertThat(c.getReason()).isEqualTo("PodFailurePolicy");
              assertThat(c.getMessage())
                  .isEqualTo(
                      "Container c for pod "
                          + h.ns
                          + "/a failed with exit code 42 matching FailJob rule at index 0");
            }),
        new Case(
            "podFailurePolicy Ignore on DisruptionTarget does not count towards backoffLimit",
            h -> {
              h.job(
                  Harness.job(1, 1)
                      .editSpec()
                      .withBackoffLimit(0)
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
            },
            h -> {
              Job job = h.serverJob();
              assertThat(job.getStatus().getFailed()).isIn(null, 0);
              assertThat(condition(job, "FailureTarget")).isNull();
              assertThat(withFinalizer(h)).isZero();
            }),
        new Case(
            "activeDeadlineSeconds passed: DeadlineExceeded and running pods deleted",
            h -> {
              h.job(
                  Harness.job(1, 1)
                      .editSpec()
                      .withActiveDeadlineSeconds(10L)
                      .endSpec()
                      .withStatus(new JobStatusBuilder().withStartTime(T0.toString()).build())
                      .build());
              h.pod(h.pod("a").withStatus(Harness.running()).build());
              h.clock.setTime(T0.plusSeconds(10));
            },
            h -> {
              JobCondition c = condition(h.serverJob(), "FailureTarget");
              assertThat(c.getReason()).isEqualTo("DeadlineExceeded");
              assertThat(c.getMessage()).isEqualTo("Job was active longer than specified deadline");
              assertThat(h.serverPods()).isEmpty();
            }),
        new Case(
            "before the deadline the Job is looked at again when it passes",
            h -> {
              h.job(
                  Harness.job(1, 1)
                      .editSpec()
                      .withActiveDeadlineSeconds(100L)
                      .endSpec()
                      .withStatus(new JobStatusBuilder().withStartTime(T0.toString()).build())
                      .build());
              h.pod(h.pod("a").withStatus(Harness.running()).build());
              h.clock.setTime(T0.plusSeconds(30));
            },
            h ->
                assertThat(h.queue.state().later())
                    .contains(new MockQueue.Delayed<>(h.ns + "/pi", Duration.ofSeconds(70)))),
        new Case(
            "lowered parallelism deletes the excess, not-ready pods first",
            h -> {
              h.job(Harness.job(5, 1).build());
              h.pod(h.pod("ready").withStatus(Harness.running()).build());
              h.pod(h.pod("pending").build());
            },
            h -> {
              assertThat(h.serverPods())
                  .extracting(p -> p.getMetadata().getName())
                  .containsExactly("ready");
              assertThat(h.serverJob().getStatus().getActive()).isEqualTo(1);
            }),
        new Case(
            "adopts a matching orphan and adds the tracking finalizer",
            h -> {
              h.job(Harness.job(1, 1).build());
              h.pod(
                  h.pod("orphan")
                      .editMetadata()
                      .withOwnerReferences()
                      .withFinalizers()
                      .endMetadata()
                      .withStatus(Harness.running())
                      .build());
            },
            h -> {
              Pod p = h.client.pods().inNamespace(h.ns).withName("orphan").get();
              assertThat(OwnerRefs.controllerOf(p).getName()).isEqualTo("pi");
              assertThat(p.getMetadata().getFinalizers()).contains(JobUtil.JOB_TRACKING_FINALIZER);
              assertThat(h.serverPods()).hasSize(1);
            }));
  }

  /** Pod control that runs {@code hook} after its first pod creation, mid-sync. */
  static final class DuringCreate implements PodControl {
    private final PodControl delegate;
    private Runnable hook;

    DuringCreate(PodControl delegate, Runnable hook) {
      this.delegate = delegate;
      this.hook = hook;
    }

    @Override
    public Pod createPod(
        String namespace,
        PodTemplateSpec template,
        HasMetadata controller,
        OwnerReference controllerRef,
        String generateName,
        List<String> finalizers) {
      Pod created =
          delegate.createPod(
              namespace, template, controller, controllerRef, generateName, finalizers);
      Runnable h = hook;
      hook = () -> {};
      h.run();
      return created;
    }

    @Override
    public void deletePod(String namespace, String name, HasMetadata controller) {
      delegate.deletePod(namespace, name, controller);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void sync(Case c, KubernetesClient client) {
    Harness h = new Harness(client);
    c.given().accept(h);
    h.sync();
    c.then().accept(h);
  }
}
