package io.jdra.kubelet.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jdra.kubelet.dra.Manager;
import io.jdra.kubelet.dra.PrepareException;
import io.jdra.runtime.Ctx;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * The steps of one pod's life on a simulated node; see {@link PodWorkers} for the overview. Each
 * method is one sync step that either completes (status written) or throws / returns "retry", so a
 * retry repeats it from the start: prepare and unprepare are idempotent, status writes are merge
 * patches of what this node owns.
 */
final class PodLifecycle {
  /**
   * Run time of a run-to-completion pod's containers (a Go duration such as {@code 5s}, {@code
   * 1m30s}); without it such pods run until deleted.
   */
  static final String RUN_DURATION_ANNOTATION = "sim.jdra.io/run-duration";

  /**
   * How long the simulated containers take to exit after SIGTERM (a Go duration); beyond the grace
   * period they are killed (exit code 137). Default 0: they exit at once, as the demo containers'
   * {@code trap 'exit 0' TERM} does.
   */
  static final String TERMINATION_DELAY_ANNOTATION = "sim.jdra.io/termination-delay";

  /** Upstream's event reason when preparing claims fails. */
  static final String FAILED_PREPARE = "FailedPrepareDynamicResources";

  private final Ctx ctx;
  private final KubernetesClient client;
  private final Manager manager;
  private final CdiRegistry cdi;
  private final PodIps ips;
  private final String nodeIp;
  private final BiConsumer<String, Duration> enqueueAfter;

  PodLifecycle(
      Ctx ctx,
      KubernetesClient client,
      Manager manager,
      CdiRegistry cdi,
      PodIps ips,
      String nodeIp,
      BiConsumer<String, Duration> enqueueAfter) {
    this.ctx = ctx;
    this.nodeIp = nodeIp;
    this.client = client;
    this.manager = manager;
    this.cdi = cdi;
    this.ips = ips;
    this.enqueueAfter = enqueueAfter;
  }

  /** Returns true to retry with backoff. */
  boolean sync(Ctx ctx, Pod pod, SimPod sp, String key) throws PrepareException {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      return terminate(ctx, pod, sp, key);
    }
    if (("Succeeded".equals(phase) || "Failed".equals(phase)) && sp.state != SimPod.State.RUNNING) {
      sp.state = SimPod.State.TERMINATED;
      unprepareOnce(ctx, pod, sp);
      return false;
    }
    switch (sp.state) {
      case PENDING -> {
        return start(ctx, pod, sp, key);
      }
      case RUNNING -> {
        if (sp.completionDue) {
          finish(sp, 0, "Completed");
          writeStatus(pod, sp);
          unprepareOnce(ctx, pod, sp);
        } else if (sp.statusDirty) {
          sp.statusDirty = false;
          writeStatus(pod, sp);
        }
        return false;
      }
      case TERMINATED -> {
        unprepareOnce(ctx, pod, sp);
        return false;
      }
    }
    return false;
  }

  // ---- start

  private boolean start(Ctx ctx, Pod pod, SimPod sp, String key) throws PrepareException {
    try {
      manager.prepareResources(ctx, pod);
    } catch (PrepareException e) {
      ctx.logger().info("Preparing dynamic resources failed, will retry", "err", e.getMessage());
      event(pod, "Warning", FAILED_PREPARE, e.getMessage());
      return true;
    }
    Instant now = ctx.clock().now();
    Map<String, SimPod.Container> containers = new LinkedHashMap<>();
    String podIp = sp.podIp != null ? sp.podIp : ips.next();
    // Init containers run first, in order, as the kubelet runs them; simulated, each one has done
    // its work (printed its output) by the time the next starts, so they all complete at once.
    for (Container c : initContainers(pod)) {
      if (!create(pod, c, podIp, now, containers)) {
        return true;
      }
    }
    for (Container c : pod.getSpec().getContainers()) {
      if (!create(pod, c, podIp, now, containers)) {
        return true;
      }
    }
    sp.podIp = podIp;
    sp.containers = containers;
    sp.startedAt = now;
    sp.state = SimPod.State.RUNNING;
    writeStatus(pod, sp);
    scheduleCompletion(pod, sp, key);
    return false;
  }

  /**
   * Creates one container: its environment with the CDI edits of its claims' devices, and what its
   * command prints. False (with a waiting status and an event) when a CDI device does not resolve,
   * as a container runtime fails it.
   */
  private boolean create(
      Pod pod, Container c, String podIp, Instant now, Map<String, SimPod.Container> containers)
      throws PrepareException {
    Map<String, String> env;
    try {
      env = environment(pod, c, podIp, cdi.resolve(manager.cdiDevices(pod, c)).env());
    } catch (CdiRegistry.UnresolvableDevicesException e) {
      String msg =
          "failed to create containerd task: CDI device injection failed: " + e.getMessage();
      writeWaiting(pod, c.getName(), "CreateContainerError", msg);
      event(pod, "Warning", "Failed", "Error: " + msg);
      return false;
    }
    List<String> cmd = new ArrayList<>();
    if (c.getCommand() != null) {
      cmd.addAll(c.getCommand());
    }
    if (c.getArgs() != null) {
      cmd.addAll(c.getArgs());
    }
    containers.put(
        c.getName(), new SimPod.Container(c.getName(), env, SimulatedOutput.of(cmd, env), now));
    return true;
  }

  private static List<Container> initContainers(Pod pod) {
    return pod.getSpec().getInitContainers() == null
        ? List.of()
        : pod.getSpec().getInitContainers();
  }

  /** A sidecar: an init container with {@code restartPolicy: Always} keeps running. */
  private static boolean sidecar(Container c) {
    return "Always".equals(c.getRestartPolicy());
  }

  private void scheduleCompletion(Pod pod, SimPod sp, String key) {
    String policy = pod.getSpec().getRestartPolicy();
    String d = annotation(pod, RUN_DURATION_ANNOTATION);
    if (d == null || "Always".equals(policy) || policy == null) {
      return;
    }
    Duration run;
    try {
      run = GoDuration.parse(d);
    } catch (IllegalArgumentException e) {
      // A bad annotation must not wedge the pod: it runs until deleted, and the user is told.
      event(pod, "Warning", "InvalidAnnotation", RUN_DURATION_ANNOTATION + ": " + e.getMessage());
      return;
    }
    sp.cancelTimer();
    sp.timer =
        ctx.clock()
            .schedule(
                run,
                () -> {
                  sp.completionDue = true;
                  enqueueAfter.accept(key, Duration.ZERO);
                });
  }

  /** The container's environment as its process would see it, CDI edits applied last. */
  private static Map<String, String> environment(
      Pod pod, Container c, String podIp, List<String> cdiEnv) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    env.put("HOSTNAME", pod.getMetadata().getName());
    env.put("HOME", "/root");
    if (c.getEnv() != null) {
      for (EnvVar e : c.getEnv()) {
        env.put(e.getName(), value(pod, e, podIp));
      }
    }
    for (String kv : cdiEnv) {
      int eq = kv.indexOf('=');
      if (eq > 0) {
        env.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    return env;
  }

  private static String value(Pod pod, EnvVar e, String podIp) {
    if (e.getValue() != null) {
      return e.getValue();
    }
    if (e.getValueFrom() != null && e.getValueFrom().getFieldRef() != null) {
      return switch (e.getValueFrom().getFieldRef().getFieldPath()) {
        case "metadata.name" -> pod.getMetadata().getName();
        case "metadata.namespace" -> pod.getMetadata().getNamespace();
        case "metadata.uid" -> pod.getMetadata().getUid();
        case "spec.nodeName" -> pod.getSpec().getNodeName();
        case "spec.serviceAccountName" -> nullToEmpty(pod.getSpec().getServiceAccountName());
        case "status.podIP" -> podIp;
        default -> "";
      };
    }
    return "";
  }

  // ---- termination

  private boolean terminate(Ctx ctx, Pod pod, SimPod sp, String key) throws PrepareException {
    Instant now = ctx.clock().now();
    if (sp.state == SimPod.State.RUNNING) {
      if (sp.killAt == null) {
        long grace =
            pod.getMetadata().getDeletionGracePeriodSeconds() == null
                ? 30
                : pod.getMetadata().getDeletionGracePeriodSeconds();
        Duration exit = terminationDelay(pod);
        Duration wait =
            exit.compareTo(Duration.ofSeconds(grace)) <= 0 ? exit : Duration.ofSeconds(grace);
        sp.exitCode = exit.compareTo(Duration.ofSeconds(grace)) <= 0 ? 0 : 137;
        sp.killAt = now.plus(wait);
        sp.cancelTimer();
        if (!wait.isZero()) {
          sp.timer = ctx.clock().schedule(wait, () -> enqueueAfter.accept(key, Duration.ZERO));
          return false;
        }
      }
      if (now.isBefore(sp.killAt)) {
        return false;
      }
      // Claims are released before the terminal status: an API server may remove a
      // terminating pod as soon as it is terminal, and nothing may outlive that unprepared.
      unprepareOnce(ctx, pod, sp);
      finish(sp, sp.exitCode, sp.exitCode == 0 ? "Completed" : "Error");
      writeStatus(pod, sp);
    }
    sp.state = SimPod.State.TERMINATED;
    unprepareOnce(ctx, pod, sp);
    // Everything is released: the final delete (grace period 0) removes the object.
    try {
      client
          .pods()
          .inNamespace(pod.getMetadata().getNamespace())
          .withName(pod.getMetadata().getName())
          .withGracePeriod(0)
          .delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
    return false;
  }

  /** The pod object is gone; release its claims. Returns false to retry. */
  boolean gone(SimPod sp) {
    sp.cancelTimer();
    if (sp.unprepared) {
      return true;
    }
    Pod ghost =
        new PodBuilder()
            .withMetadata(
                new ObjectMetaBuilder()
                    .withUid(sp.uid)
                    .withNamespace(sp.namespace)
                    .withName(sp.name)
                    .build())
            .withNewSpec()
            .endSpec()
            .build();
    try {
      manager.unprepareResources(ctx, ghost);
      sp.unprepared = true;
      return true;
    } catch (PrepareException e) {
      ctx.logger()
          .info("Unpreparing resources of removed pod failed, will retry", "err", e.getMessage());
      return false;
    }
  }

  private void unprepareOnce(Ctx ctx, Pod pod, SimPod sp) throws PrepareException {
    if (sp.unprepared) {
      return;
    }
    if (manager.podMightNeedToUnprepareResources(pod.getMetadata().getUid())) {
      try {
        manager.unprepareResources(ctx, pod);
      } catch (PrepareException e) {
        ctx.logger()
            .info("Unpreparing dynamic resources failed, will retry", "err", e.getMessage());
        throw e;
      }
    }
    sp.unprepared = true;
  }

  private void finish(SimPod sp, int exitCode, String reason) {
    sp.cancelTimer();
    sp.exitCode = exitCode;
    sp.finishedAt = ctx.clock().now();
    sp.state = SimPod.State.TERMINATED;
    sp.completionDue = false;
  }

  // ---- status

  private void writeStatus(Pod pod, SimPod sp) {
    String now = ts(ctx.clock().now());
    boolean running = sp.state == SimPod.State.RUNNING;
    List<ContainerStatus> statuses = new ArrayList<>();
    for (Container c : pod.getSpec().getContainers()) {
      SimPod.Container run = sp.containers.get(c.getName());
      var b =
          new ContainerStatusBuilder()
              .withName(c.getName())
              .withImage(c.getImage())
              .withImageID(c.getImage())
              .withContainerID("jdra-sim://" + sp.uid + "-" + c.getName())
              .withReady(running)
              .withStarted(running)
              .withRestartCount(0)
              .withAllocatedResourcesStatus(manager.allocatedResourcesStatus(pod, c));
      if (running) {
        b.withNewState()
            .withNewRunning()
            .withStartedAt(ts(run.startedAt()))
            .endRunning()
            .endState();
      } else {
        b.withNewState()
            .withNewTerminated()
            .withExitCode(sp.exitCode)
            .withReason(sp.exitCode == 0 ? "Completed" : "Error")
            .withStartedAt(ts(run.startedAt()))
            .withFinishedAt(ts(sp.finishedAt))
            .withContainerID("jdra-sim://" + sp.uid + "-" + c.getName())
            .endTerminated()
            .endState();
      }
      statuses.add(b.build());
    }
    String phase = running ? "Running" : sp.exitCode == 0 ? "Succeeded" : "Failed";
    List<PodCondition> conditions = new ArrayList<>(otherConditions(pod));
    String ready = running ? "True" : "False";
    conditions.add(cond("PodReadyToStartContainers", running ? "True" : "False", null, now));
    conditions.add(cond("Initialized", "True", running ? null : "PodCompleted", now));
    conditions.add(cond("Ready", ready, running ? null : "PodCompleted", now));
    conditions.add(cond("ContainersReady", ready, running ? null : "PodCompleted", now));
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("phase", phase);
    status.put("conditions", conditions);
    status.put("hostIP", hostIp());
    status.put("hostIPs", List.of(Map.of("ip", hostIp())));
    status.put("podIP", sp.podIp);
    status.put("podIPs", List.of(Map.of("ip", sp.podIp)));
    status.put("startTime", ts(sp.startedAt));
    status.put("containerStatuses", statuses);
    if (!initContainers(pod).isEmpty()) {
      status.put("initContainerStatuses", initStatuses(pod, sp, running));
    }
    patchStatus(pod, status);
  }

  /**
   * Init containers that ran to completion are terminated with reason Completed, started and
   * finished when the pod's containers started; sidecars run (and end) with the pod.
   */
  private List<ContainerStatus> initStatuses(Pod pod, SimPod sp, boolean running) {
    List<ContainerStatus> statuses = new ArrayList<>();
    for (Container c : initContainers(pod)) {
      SimPod.Container run = sp.containers.get(c.getName());
      boolean up = sidecar(c) && running;
      String id = "jdra-sim://" + sp.uid + "-" + c.getName();
      var b =
          new ContainerStatusBuilder()
              .withName(c.getName())
              .withImage(c.getImage())
              .withImageID(c.getImage())
              .withContainerID(id)
              .withReady(up)
              .withStarted(up)
              .withRestartCount(0)
              .withAllocatedResourcesStatus(manager.allocatedResourcesStatus(pod, c));
      if (up) {
        b.withNewState()
            .withNewRunning()
            .withStartedAt(ts(run.startedAt()))
            .endRunning()
            .endState();
      } else {
        boolean completed = !sidecar(c) || sp.exitCode == 0;
        b.withNewState()
            .withNewTerminated()
            .withExitCode(completed ? 0 : sp.exitCode)
            .withReason(completed ? "Completed" : "Error")
            .withStartedAt(ts(run.startedAt()))
            .withFinishedAt(ts(sidecar(c) ? sp.finishedAt : run.startedAt()))
            .withContainerID(id)
            .endTerminated()
            .endState();
      }
      statuses.add(b.build());
    }
    return statuses;
  }

  private void writeWaiting(Pod pod, String container, String reason, String message) {
    List<ContainerStatus> statuses = new ArrayList<>();
    for (Container c : pod.getSpec().getContainers()) {
      var b =
          new ContainerStatusBuilder()
              .withName(c.getName())
              .withImage(c.getImage())
              .withImageID("")
              .withReady(false)
              .withStarted(false)
              .withRestartCount(0);
      if (c.getName().equals(container)) {
        b.withNewState()
            .withNewWaiting()
            .withReason(reason)
            .withMessage(message)
            .endWaiting()
            .endState();
      } else {
        b.withNewState().withNewWaiting().withReason("ContainerCreating").endWaiting().endState();
      }
      statuses.add(b.build());
    }
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("phase", "Pending");
    status.put("containerStatuses", statuses);
    patchStatus(pod, status);
  }

  private String hostIp() {
    return nodeIp;
  }

  private void patchStatus(Pod pod, Map<String, Object> status) {
    String body = client.getKubernetesSerialization().asJson(Map.of("status", status));
    client
        .pods()
        .inNamespace(pod.getMetadata().getNamespace())
        .withName(pod.getMetadata().getName())
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), body);
  }

  private static List<PodCondition> otherConditions(Pod pod) {
    List<PodCondition> out = new ArrayList<>();
    if (pod.getStatus() != null && pod.getStatus().getConditions() != null) {
      for (PodCondition c : pod.getStatus().getConditions()) {
        if (!List.of("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady")
            .contains(c.getType())) {
          out.add(c);
        }
      }
    }
    return out;
  }

  private static PodCondition cond(String type, String status, String reason, String now) {
    return new PodConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withLastTransitionTime(now)
        .build();
  }

  private void event(Pod pod, String type, String reason, String note) {
    Instant now = ctx.clock().now();
    try {
      client
          .events()
          .v1()
          .events()
          .inNamespace(pod.getMetadata().getNamespace())
          .resource(
              new EventBuilder()
                  .withNewMetadata()
                  .withName(
                      pod.getMetadata().getName()
                          + "."
                          + UUID.randomUUID().toString().substring(0, 8))
                  .withNamespace(pod.getMetadata().getNamespace())
                  .endMetadata()
                  .withEventTime(new io.fabric8.kubernetes.api.model.MicroTime(ts(now)))
                  .withType(type)
                  .withReason(reason)
                  .withAction("Sync")
                  .withNote(note.length() > 1024 ? note.substring(0, 1024) : note)
                  .withReportingController("kubelet")
                  .withReportingInstance(pod.getSpec().getNodeName())
                  .withNewRegarding()
                  .withApiVersion("v1")
                  .withKind("Pod")
                  .withNamespace(pod.getMetadata().getNamespace())
                  .withName(pod.getMetadata().getName())
                  .withUid(pod.getMetadata().getUid())
                  .endRegarding()
                  .build())
          .create();
    } catch (KubernetesClientException e) {
      ctx.logger().v(3).info("Writing event failed", "reason", reason, "err", e.getMessage());
    }
  }

  private Duration terminationDelay(Pod pod) {
    String d = annotation(pod, TERMINATION_DELAY_ANNOTATION);
    try {
      return d == null ? Duration.ZERO : GoDuration.parse(d);
    } catch (IllegalArgumentException e) {
      event(
          pod,
          "Warning",
          "InvalidAnnotation",
          TERMINATION_DELAY_ANNOTATION + ": " + e.getMessage());
      return Duration.ZERO;
    }
  }

  private static String annotation(Pod pod, String name) {
    var a = pod.getMetadata().getAnnotations();
    return a == null ? null : a.get(name);
  }

  private static String ts(Instant t) {
    return t == null ? null : t.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
