package io.jdra.controllers.job;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.jdra.controllers.controllerutil.ControllerExpectations;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.RealPodControl;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.FakeEventRecorder;
import io.jdra.runtime.workqueue.MockQueue;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One case's world: objects in the embedded API server, caches the test fills (so they may lag), a
 * fake clock, a mock queue and recorded events, in a namespace of its own.
 */
final class Harness {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  final KubernetesClient client;
  final String ns = "job-" + UUID.randomUUID().toString().substring(0, 8);
  final FakeClock clock = new FakeClock(T0);
  final Ctx ctx = Ctx.forTest(clock);
  final MockQueue<String> queue = new MockQueue<>();
  final FakeEventRecorder events = EventRecorder.fake();
  final CacheImpl<Job> jobs = new CacheImpl<>();
  final CacheImpl<Pod> pods = new CacheImpl<>();
  final ControllerExpectations expectations = new ControllerExpectations(clock);
  final BackoffStore backoff = new BackoffStore();
  final JobController.FinalizerExpectations finalizers = new JobController.FinalizerExpectations();
  Job job;

  Harness(KubernetesClient client) {
    this.client = client;
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
  }

  JobController controller() {
    return new JobController(
        new JobController.Deps(
            client,
            Lister.of(jobs),
            Lister.of(pods),
            expectations,
            finalizers,
            new RealPodControl(client, events),
            events,
            backoff,
            clock),
        queue,
        () -> true);
  }

  void sync() {
    controller().syncHandler(ctx, ns + "/pi");
  }

  static JobBuilder job(int completions, int parallelism) {
    return new JobBuilder()
        .withNewMetadata()
        .withName("pi")
        .endMetadata()
        .withNewSpec()
        .withCompletions(completions)
        .withParallelism(parallelism)
        .withNewTemplate()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("c")
        .withImage("busybox")
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec();
  }

  /** Creates the Job (and its status) in the server and caches it. */
  Job job(Job j) {
    Job created = client.batch().v1().jobs().inNamespace(ns).resource(inNs(j)).create();
    if (j.getStatus() != null) {
      created =
          client
              .batch()
              .v1()
              .jobs()
              .inNamespace(ns)
              .resource(new JobBuilder(created).withStatus(j.getStatus()).build())
              .updateStatus();
    }
    jobs.put(created);
    job = created;
    return created;
  }

  /** A pod of the Job as the controller makes it (labels, owner, tracking finalizer). */
  PodBuilder pod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(job.getSpec().getTemplate().getMetadata().getLabels())
        .withOwnerReferences(OwnerRefs.newControllerRef(job))
        .withFinalizers(JobUtil.JOB_TRACKING_FINALIZER)
        .endMetadata()
        .withSpec(job.getSpec().getTemplate().getSpec());
  }

  static PodStatus finished(boolean success, int exitCode, Instant at) {
    return new PodStatusBuilder()
        .withPhase(success ? "Succeeded" : "Failed")
        .addNewContainerStatus()
        .withName("c")
        .withImage("busybox")
        .withImageID("")
        .withReady(false)
        .withRestartCount(0)
        .withNewState()
        .withNewTerminated()
        .withExitCode(exitCode)
        .withFinishedAt(at.toString())
        .endTerminated()
        .endState()
        .endContainerStatus()
        .build();
  }

  static PodStatus running() {
    return new PodStatusBuilder()
        .withPhase("Running")
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .endCondition()
        .build();
  }

  /** Creates the pod (and its status) in the server and caches the result. */
  Pod pod(Pod p) {
    Pod created = client.pods().inNamespace(ns).resource(inNs(p)).create();
    if (p.getStatus() != null) {
      created =
          client
              .pods()
              .inNamespace(ns)
              .resource(new PodBuilder(created).withStatus(p.getStatus()).build())
              .updateStatus();
    }
    pods.put(created);
    return created;
  }

  Job serverJob() {
    return client.batch().v1().jobs().inNamespace(ns).withName("pi").get();
  }

  List<Pod> serverPods() {
    return client.pods().inNamespace(ns).list().getItems();
  }

  /** The caches catch up with the server, and the handlers see pods' finalizers gone. */
  void catchUp() {
    for (Pod p : List.copyOf(pods.list())) {
      if (p.getMetadata().getNamespace().equals(ns)) {
        pods.remove(p);
      }
    }
    for (Pod p : serverPods()) {
      pods.put(p);
      if (!JobUtil.hasTrackingFinalizer(p)) {
        finalizers.observed(ns + "/pi", p.getMetadata().getUid());
      }
    }
    jobs.put(serverJob());
  }

  private <T extends HasMetadata> T inNs(T obj) {
    obj.getMetadata().setNamespace(ns);
    return obj;
  }
}
