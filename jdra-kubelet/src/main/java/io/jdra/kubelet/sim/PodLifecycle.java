package io.jdra.kubelet.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.kubelet.dra.Manager;
import io.jdra.kubelet.dra.PrepareException;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.record.EventRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

/**
 * The steps of one pod's life on a simulated node; see {@link PodWorkers} for the overview. Each
 * method is one sync step that either completes (status written) or throws / returns "retry", so a
 * retry repeats it from the start: prepare and unprepare are idempotent, status writes are merge
 * patches of what this node owns.
 *
 * <p>Containers end as {@link ContainerRun} reads their command lines; one that ended is started
 * again after upstream's crash-loop back-off (10 s, doubled per restart, at most 5 min) when the
 * pod's {@code restartPolicy} says so (Always; OnFailure for a non-zero exit code). When no
 * container runs or will restart, the pod is Succeeded (all exited 0) or Failed and its claims are
 * unprepared.
 */
final class PodLifecycle {
  /**
   * Run time of a run-to-completion pod's containers (a Go duration such as {@code 5s}, {@code
   * 1m30s}), overriding what their command lines say: they exit 0 after it.
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

  /** Upstream's crash-loop back-off: the first restart waits this long, then doubled. */
  static final Duration INITIAL_BACK_OFF = Duration.ofSeconds(10);

  static final Duration MAX_BACK_OFF = Duration.ofMinutes(5);

  private final Ctx ctx;
  private final KubernetesClient client;
  private final Manager manager;
  private final CdiRegistry cdi;
  private final PodIps ips;
  private final EventRecorder recorder;
  private final ContainerEvents events;
  private final PodStatuses statuses;
  private final String nodeIp;
  private final BiConsumer<String, Duration> enqueueAfter;

  PodLifecycle(
      Ctx ctx,
      KubernetesClient client,
      Manager manager,
      CdiRegistry cdi,
      PodIps ips,
      String nodeIp,
      EventRecorder recorder,
      StatusManager statusManager,
      BiConsumer<String, Duration> enqueueAfter) {
    this.ctx = ctx;
    this.client = client;
    this.manager = manager;
    this.cdi = cdi;
    this.ips = ips;
    this.recorder = recorder;
    this.events = new ContainerEvents(recorder);
    this.statuses =
        new PodStatuses(
            statusManager, client.getKubernetesSerialization(), manager, ctx.clock(), nodeIp);
    this.nodeIp = nodeIp;
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
        boolean changed = advance(pod, sp, key);
        if (sp.state == SimPod.State.TERMINATED) {
          stored(statuses.write(pod, sp));
          unprepareOnce(ctx, pod, sp);
        } else if (changed || sp.statusDirty) {
          sp.statusDirty = false;
          statuses.write(pod, sp);
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
      recorder.eventf(pod, null, EventRecorder.WARNING, FAILED_PREPARE, "Sync", e.getMessage());
      return true;
    }
    Instant now = ctx.clock().now();
    Map<String, SimPod.Container> containers = new LinkedHashMap<>();
    String podIp = sp.podIp != null ? sp.podIp : ips.next();
    // Init containers run first, in order, as the kubelet runs them; simulated, each one has done
    // its work (printed its output) by the time the next starts, so they all complete at once.
    for (Container c : initContainers(pod)) {
      if (!create(pod, c, true, podIp, now, containers)) {
        return true;
      }
    }
    for (Container c : pod.getSpec().getContainers()) {
      if (!create(pod, c, false, podIp, now, containers)) {
        return true;
      }
    }
    Map<String, SimPod.Run> runs = new LinkedHashMap<>();
    for (Container c : pod.getSpec().getContainers()) {
      Optional<ContainerRun> end = runOf(pod, c);
      runs.put(
          c.getName(),
          new SimPod.Run(
              0,
              now,
              end.map(r -> now.plus(r.after())).orElse(null),
              end.map(ContainerRun::exitCode).orElse(0),
              null,
              null,
              null));
    }
    sp.podIp = podIp;
    sp.containers = containers;
    sp.runs = runs;
    sp.startedAt = now;
    sp.state = SimPod.State.RUNNING;
    for (Container c : initContainers(pod)) {
      events.started(pod, c, true);
    }
    for (Container c : pod.getSpec().getContainers()) {
      events.started(pod, c, false);
    }
    // Containers that end at once are seen ended in the same sync, as a runtime's next relist
    // would; the first status then already says Succeeded or Failed.
    advance(pod, sp, key);
    var written = statuses.write(pod, sp);
    if (sp.state == SimPod.State.TERMINATED) {
      stored(written);
      unprepareOnce(ctx, pod, sp);
    }
    return false;
  }

  /**
   * Creates one container: its environment with the CDI edits of its claims' devices, and what its
   * command prints. False (with a waiting status and an event) when a CDI device does not resolve,
   * as a container runtime fails it.
   */
  private boolean create(
      Pod pod,
      Container c,
      boolean init,
      String podIp,
      Instant now,
      Map<String, SimPod.Container> containers)
      throws PrepareException {
    Map<String, String> env;
    try {
      env = environment(pod, c, podIp, nodeIp, cdi.resolve(manager.cdiDevices(pod, c)).env());
    } catch (CdiRegistry.UnresolvableDevicesException e) {
      String msg =
          "failed to create containerd task: CDI device injection failed: " + e.getMessage();
      statuses.writeWaiting(pod, c.getName(), "CreateContainerError", msg);
      events.failed(pod, c, init, msg);
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

  static List<Container> initContainers(Pod pod) {
    return pod.getSpec().getInitContainers() == null
        ? List.of()
        : pod.getSpec().getInitContainers();
  }

  /** A sidecar: an init container with {@code restartPolicy: Always} keeps running. */
  static boolean sidecar(Container c) {
    return "Always".equals(c.getRestartPolicy());
  }

  /** When a container instance ends by itself: the annotation, else its command line. */
  private Optional<ContainerRun> runOf(Pod pod, Container c) {
    String d = annotation(pod, RUN_DURATION_ANNOTATION);
    String policy = pod.getSpec().getRestartPolicy();
    if (d != null && ("Never".equals(policy) || "OnFailure".equals(policy))) {
      try {
        return Optional.of(new ContainerRun(GoDuration.parse(d), 0));
      } catch (IllegalArgumentException e) {
        recorder.eventf(
            pod,
            null,
            EventRecorder.WARNING,
            "InvalidAnnotation",
            "Sync",
            "%s: %s",
            RUN_DURATION_ANNOTATION,
            e.getMessage());
      }
    }
    return ContainerRun.of(c.getCommand(), c.getArgs());
  }

  // ---- containers ending and restarting

  /**
   * Applies what is due by now: containers that exit, back-offs that end (the container starts
   * again). Ends the pod when nothing runs or waits to restart, else arms the timer for the next
   * due moment. Returns whether anything changed.
   */
  private boolean advance(Pod pod, SimPod sp, String key) {
    Instant now = ctx.clock().now();
    Map<String, SimPod.Run> runs = new LinkedHashMap<>(sp.runs);
    boolean changed = false;
    for (Container c : pod.getSpec().getContainers()) {
      SimPod.Run r = runs.get(c.getName());
      SimPod.Run next = step(pod, c, r, now);
      if (next != r) {
        runs.put(c.getName(), next);
        changed = true;
      }
    }
    sp.runs = runs;
    if (runs.values().stream().allMatch(SimPod.Run::finished)) {
      sp.cancelTimer();
      sp.finishedAt = now;
      sp.exitCode = 0;
      sp.state = SimPod.State.TERMINATED;
      return true;
    }
    armTimer(sp, key, now);
    return changed;
  }

  /** One container's next state at {@code now} (the same object when nothing is due). */
  private SimPod.Run step(Pod pod, Container c, SimPod.Run r, Instant now) {
    if (r.running() && r.exitAt() != null && !now.isBefore(r.exitAt())) {
      SimPod.Run exited = r.exited(r.exitAt(), r.exitCode());
      if (!restarts(pod, r.exitCode())) {
        return exited;
      }
      events.backOff(pod, c);
      return step(pod, c, exited.restartAt(r.exitAt().plus(backOff(r.restartCount()))), now);
    }
    if (r.waitingToRestart() && !now.isBefore(r.restartAt())) {
      Optional<ContainerRun> end = runOf(pod, c);
      Instant start = r.restartAt();
      events.started(pod, c, false);
      SimPod.Run again =
          r.restarted(
              start,
              end.map(e -> start.plus(e.after())).orElse(null),
              end.map(ContainerRun::exitCode).orElse(0));
      return step(pod, c, again, now);
    }
    return r;
  }

  /** Upstream's restart decision for a container that exited with {@code code}. */
  private static boolean restarts(Pod pod, int code) {
    String policy = pod.getSpec().getRestartPolicy();
    return switch (policy == null ? "Always" : policy) {
      case "Never" -> false;
      case "OnFailure" -> code != 0;
      default -> true;
    };
  }

  /** The back-off before restart number {@code restarts + 1}: 10 s doubled, at most 5 min. */
  static Duration backOff(int restarts) {
    Duration d = INITIAL_BACK_OFF;
    for (int i = 0; i < restarts && d.compareTo(MAX_BACK_OFF) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(MAX_BACK_OFF) < 0 ? d : MAX_BACK_OFF;
  }

  private void armTimer(SimPod sp, String key, Instant now) {
    Instant due = null;
    for (SimPod.Run r : sp.runs.values()) {
      Instant t = r.running() ? r.exitAt() : r.restartAt();
      if (t != null && (due == null || t.isBefore(due))) {
        due = t;
      }
    }
    sp.cancelTimer();
    if (due != null) {
      sp.timer =
          ctx.clock()
              .schedule(Duration.between(now, due), () -> enqueueAfter.accept(key, Duration.ZERO));
    }
  }

  /** The container's environment as its process would see it, CDI edits applied last. */
  private static Map<String, String> environment(
      Pod pod, Container c, String podIp, String hostIp, List<String> cdiEnv) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    env.put("HOSTNAME", pod.getMetadata().getName());
    env.put("HOME", "/root");
    if (c.getEnv() != null) {
      for (EnvVar e : c.getEnv()) {
        env.put(e.getName(), value(pod, e, podIp, hostIp));
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

  private static String value(Pod pod, EnvVar e, String podIp, String hostIp) {
    if (e.getValue() != null) {
      return e.getValue();
    }
    if (e.getValueFrom() != null && e.getValueFrom().getFieldRef() != null) {
      return DownwardApi.value(pod, e.getValueFrom().getFieldRef().getFieldPath(), podIp, hostIp);
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
        for (Container c : pod.getSpec().getContainers()) {
          if (sp.runs.get(c.getName()).running()) {
            events.killing(pod, c, false);
          }
        }
        for (Container c : initContainers(pod)) {
          if (sidecar(c)) {
            events.killing(pod, c, true);
          }
        }
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
      stopAll(sp, sp.killAt, sp.exitCode);
      // The terminal status is stored before the final delete removes the object.
      stored(statuses.write(pod, sp));
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

  /**
   * Waits until a status is stored; a failed write is thrown as it was (the sync is retried, and
   * the status manager retries the write meanwhile).
   */
  private static void stored(CompletableFuture<Void> written) {
    try {
      written.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw e;
    }
  }

  /** Every container still running (or waiting to restart) is stopped at {@code at}. */
  private void stopAll(SimPod sp, Instant at, int code) {
    Map<String, SimPod.Run> runs = new LinkedHashMap<>();
    sp.runs.forEach((name, r) -> {
      if (r.running()) {
        runs.put(name, r.exited(at, code));
      } else if (r.waitingToRestart()) {
        runs.put(name, r.restartAt(null));
      } else {
        runs.put(name, r);
      }
    });
    sp.runs = runs;
    sp.finishedAt = at;
    sp.state = SimPod.State.TERMINATED;
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

  private Duration terminationDelay(Pod pod) {
    String d = annotation(pod, TERMINATION_DELAY_ANNOTATION);
    try {
      return d == null ? Duration.ZERO : GoDuration.parse(d);
    } catch (IllegalArgumentException e) {
      recorder.eventf(
          pod,
          null,
          EventRecorder.WARNING,
          "InvalidAnnotation",
          "Sync",
          "%s: %s",
          TERMINATION_DELAY_ANNOTATION,
          e.getMessage());
      return Duration.ZERO;
    }
  }

  private static String annotation(Pod pod, String name) {
    var a = pod.getMetadata().getAnnotations();
    return a == null ? null : a.get(name);
  }
}
