package io.jdra.controllers.job;

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
import io.jdra.controllers.controllerutil.PodControl;
import io.jdra.controllers.controllerutil.RealPodControl;
import io.jdra.controllers.testing.ControllerHarness;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.workqueue.MockQueue;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Instant;

/**
 * One case's world: objects in the embedded API server, caches the test fills (so they may lag), a
 * fake clock, a mock queue and recorded events, in a namespace of its own.
 */
final class Harness extends ControllerHarness {
  final CacheImpl<Job> jobs = new CacheImpl<>();
  final ControllerExpectations expectations = new ControllerExpectations(clock);
  final BackoffStore backoff = new BackoffStore();
  final FinalizerExpectations finalizers = new FinalizerExpectations();

  final PrometheusRegistry registry = new PrometheusRegistry();
  final JobMetrics metrics = JobMetrics.create(registry);
  final MockQueue<String> orphanQueue = new MockQueue<>();

  /** What the controller creates and deletes pods through; a case may wrap it. */
  PodControl podControl = new RealPodControl(client, events);

  Job job;

  Harness(KubernetesClient client) {
    super(client, "job-");
  }

  JobController controller() {
    return new JobController(
        new JobController.Deps(
            client,
            Lister.of(jobs),
            Lister.of(pods),
            expectations,
            finalizers,
            podControl,
            events,
            backoff,
            metrics,
            clock),
        queue,
        orphanQueue,
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

  /** Pod {@code p} with the tracking finalizer and no owner, as the GC leaves an orphan. */
  static PodBuilder orphan(Harness h) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("p")
        .withFinalizers(JobUtil.JOB_TRACKING_FINALIZER)
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("c")
        .withImage("busybox")
        .endContainer()
        .endSpec();
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

  /** The kubelet's part: pod {@code name} gets {@code status} in the server and the cache. */
  void setPodStatus(String name, PodStatus status) {
    Pod cur = client.pods().inNamespace(ns).withName(name).get();
    pods.put(
        client
            .pods()
            .inNamespace(ns)
            .resource(new PodBuilder(cur).withStatus(status).build())
            .updateStatus());
  }

  Job serverJob() {
    return client.batch().v1().jobs().inNamespace(ns).withName("pi").get();
  }

  /**
   * The pod informer delivers the server's version of pod {@code name}: the cache first, then the
   * controller's update handler, in that order as client-go and fabric8 do.
   */
  void deliverPodUpdate(String name) {
    Pod old = pods.getByKey(ns + "/" + name);
    Pod cur = client.pods().inNamespace(ns).withName(name).get();
    pods.put(cur);
    controller().updatePod(old, cur);
  }

  /** The caches catch up with the server, and the handlers see pods' finalizers gone. */
  void catchUp() {
    for (Pod p : catchUpPods()) {
      if (!JobUtil.hasTrackingFinalizer(p)) {
        finalizers.observed(ns + "/pi", p.getMetadata().getUid());
      }
    }
    jobs.put(serverJob());
  }
}
