package io.jdra.kubelet.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateTerminatedBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.kubelet.dra.Manager;
import io.jdra.runtime.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The pod status a kubelet reports for a simulated pod: phase, conditions, IPs and a status per
 * container from its {@link SimPod.Run}, handed to the {@link StatusManager} (which merges it into
 * the server's status: conditions the kubelet does not own stay as they are).
 */
final class PodStatuses {
  private final StatusManager statusManager;
  private final Manager manager;
  private final Clock clock;
  private final String nodeIp;
  private final KubernetesSerialization serialization;

  PodStatuses(
      StatusManager statusManager,
      KubernetesSerialization serialization,
      Manager manager,
      Clock clock,
      String nodeIp) {
    this.statusManager = statusManager;
    this.serialization = serialization;
    this.manager = manager;
    this.clock = clock;
    this.nodeIp = nodeIp;
  }

  /** Upstream's pod phase for containers that started: terminal once nothing runs or restarts. */
  static String phase(SimPod sp) {
    if (sp.state != SimPod.State.TERMINATED) {
      return "Running";
    }
    for (SimPod.Run r : sp.runs.values()) {
      if (r.terminated() == null || r.terminated().exitCode() != 0) {
        return "Failed";
      }
    }
    return "Succeeded";
  }

  /**
   * Hands the pod's status to the status manager; the future completes once it is stored (see
   * {@link StatusManager#setPodStatus}).
   */
  CompletableFuture<Void> write(Pod pod, SimPod sp) {
    String now = ts(clock.now());
    boolean done = sp.state == SimPod.State.TERMINATED;
    List<ContainerStatus> statuses = new ArrayList<>();
    List<String> unready = new ArrayList<>();
    for (Container c : pod.getSpec().getContainers()) {
      SimPod.Run run = sp.runs.get(c.getName());
      statuses.add(status(pod, sp, c, run));
      if (!run.running()) {
        unready.add(c.getName());
      }
    }
    List<PodCondition> conditions = new ArrayList<>();
    String ready = unready.isEmpty() && !done ? "True" : "False";
    String reason = done ? "PodCompleted" : unready.isEmpty() ? null : "ContainersNotReady";
    String message =
        done || unready.isEmpty()
            ? null
            : "containers with unready status: [" + String.join(" ", unready) + "]";
    conditions.add(
        cond(pod, "PodReadyToStartContainers", done ? "False" : "True", null, null, now));
    conditions.add(cond(pod, "Initialized", "True", done ? "PodCompleted" : null, null, now));
    conditions.add(cond(pod, "Ready", ready, reason, message, now));
    conditions.add(cond(pod, "ContainersReady", ready, reason, message, now));
    // A pod on a node is scheduled, also when it bypassed the scheduler (upstream's
    // generateAPIPodStatus sets it; the time is kept from the scheduler's condition).
    conditions.add(cond(pod, "PodScheduled", "True", null, null, now));
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("phase", phase(sp));
    status.put("conditions", conditions);
    status.put("hostIP", nodeIp);
    status.put("hostIPs", List.of(Map.of("ip", nodeIp)));
    status.put("podIP", sp.podIp);
    status.put("podIPs", List.of(Map.of("ip", sp.podIp)));
    status.put("startTime", ts(sp.startedAt));
    status.put("containerStatuses", statuses);
    if (!PodLifecycle.initContainers(pod).isEmpty()) {
      status.put("initContainerStatuses", initStatuses(pod, sp, !done));
    }
    return patch(pod, status);
  }

  private ContainerStatus status(Pod pod, SimPod sp, Container c, SimPod.Run run) {
    String id = containerId(sp, c);
    var b =
        new ContainerStatusBuilder()
            .withName(c.getName())
            .withImage(c.getImage())
            .withImageID(c.getImage())
            .withContainerID(id)
            .withReady(run.running())
            .withStarted(run.running())
            .withRestartCount(run.restartCount())
            .withAllocatedResourcesStatus(manager.allocatedResourcesStatus(pod, c));
    if (run.running()) {
      b.withNewState().withNewRunning().withStartedAt(ts(run.startedAt())).endRunning().endState();
    } else if (run.waitingToRestart()) {
      Duration backOff = Duration.between(run.terminated().finishedAt(), run.restartAt());
      b.withNewState()
          .withNewWaiting()
          .withReason("CrashLoopBackOff")
          .withMessage(
              "back-off "
                  + GoDuration.format(backOff)
                  + " restarting failed container="
                  + c.getName()
                  + " pod="
                  + ContainerEvents.podDesc(pod))
          .endWaiting()
          .endState();
    } else {
      b.withNewState().withTerminated(terminated(run.terminated(), id)).endState();
    }
    SimPod.Terminated last = run.waitingToRestart() ? run.terminated() : run.last();
    if (last != null) {
      b.withNewLastState().withTerminated(terminated(last, id)).endLastState();
    }
    return b.build();
  }

  private static ContainerStateTerminated terminated(SimPod.Terminated t, String id) {
    return new ContainerStateTerminatedBuilder()
        .withExitCode(t.exitCode())
        .withReason(t.reason())
        .withStartedAt(ts(t.startedAt()))
        .withFinishedAt(ts(t.finishedAt()))
        .withContainerID(id)
        .build();
  }

  /**
   * Init containers that ran to completion are terminated with reason Completed, started and
   * finished when the pod's containers started; sidecars run (and end) with the pod.
   */
  private List<ContainerStatus> initStatuses(Pod pod, SimPod sp, boolean running) {
    List<ContainerStatus> statuses = new ArrayList<>();
    for (Container c : PodLifecycle.initContainers(pod)) {
      SimPod.Container run = sp.containers.get(c.getName());
      boolean up = PodLifecycle.sidecar(c) && running;
      String id = containerId(sp, c);
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
        boolean sidecar = PodLifecycle.sidecar(c);
        int code = sidecar ? sp.exitCode : 0;
        Instant end = sidecar && sp.finishedAt != null ? sp.finishedAt : run.startedAt();
        b.withNewState()
            .withTerminated(
                terminated(
                    new SimPod.Terminated(
                        code, code == 0 ? "Completed" : "Error", run.startedAt(), end),
                    id))
            .endState();
      }
      statuses.add(b.build());
    }
    return statuses;
  }

  /** Pending with one container waiting for {@code reason} (a container the runtime refused). */
  CompletableFuture<Void> writeWaiting(Pod pod, String container, String reason, String message) {
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
    return patch(pod, status);
  }

  private static String containerId(SimPod sp, Container c) {
    return "jdra-sim://" + sp.uid + "-" + c.getName();
  }

  private CompletableFuture<Void> patch(Pod pod, Map<String, Object> status) {
    var meta = pod.getMetadata();
    return statusManager.setPodStatus(
        meta.getUid(),
        meta.getNamespace(),
        meta.getName(),
        serialization.convertValue(status, ObjectNode.class));
  }

  /** A pod's UID and status as JSON. */
  static StatusManager.ServerPod serverPod(KubernetesSerialization serialization, Pod pod) {
    ObjectNode status =
        pod.getStatus() == null
            ? JsonNodeFactory.instance.objectNode()
            : serialization.convertValue(pod.getStatus(), ObjectNode.class);
    return new StatusManager.ServerPod(pod.getMetadata().getUid(), status);
  }

  /**
   * A condition this node owns; its last transition time stays what the pod has while the status
   * does not change (as upstream's status manager keeps it), so an unchanged status is an unchanged
   * patch.
   */
  private static PodCondition cond(
      Pod pod, String type, String status, String reason, String message, String now) {
    String since = now;
    if (pod.getStatus() != null && pod.getStatus().getConditions() != null) {
      for (PodCondition c : pod.getStatus().getConditions()) {
        if (type.equals(c.getType())
            && status.equals(c.getStatus())
            && c.getLastTransitionTime() != null) {
          since = c.getLastTransitionTime();
        }
      }
    }
    return new PodConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(message)
        .withLastTransitionTime(since)
        .build();
  }

  static String ts(Instant t) {
    return t == null ? null : t.truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
