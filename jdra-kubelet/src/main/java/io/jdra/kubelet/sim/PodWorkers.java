package io.jdra.kubelet.sim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.kubelet.dra.Manager;
import io.jdra.kubelet.dra.PrepareException;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.logging.Klog;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * Runs the pods bound to one simulated node (the part of upstream's pod workers and sync loop a
 * node without a container runtime needs). Pods come from an informer on {@code
 * spec.nodeName=<node>}; its handlers only enqueue {@code namespace/name} keys, and workers sync
 * one pod at a time per key:
 *
 * <ul>
 *   <li>new pod: prepare its claims through the DRA manager, resolve each container's CDI devices
 *       against the CDI specs, "start" the containers, report Running;
 *   <li>containers whose command lines end ({@link ContainerRun}) exit, are restarted after a
 *       back-off as {@code restartPolicy} says, and once none runs the pod is Succeeded or Failed
 *       and its claims are unprepared (the annotation {@value PodLifecycle#RUN_DURATION_ANNOTATION}
 *       sets the run time of Never and OnFailure pods);
 *   <li>pod being deleted: containers stop after the annotation {@value
 *       PodLifecycle#TERMINATION_DELAY_ANNOTATION} (default 0: they handle SIGTERM at once) or are
 *       killed when the grace period ends, then claims are unprepared, then the pod is deleted for
 *       good;
 *   <li>pod object gone (force deletion): its claims are unprepared.
 * </ul>
 *
 * Failed steps are retried with the queue's rate limiting; nothing is half-reported.
 */
public final class PodWorkers {
  private final Ctx ctx;
  private final KubernetesClient client;
  private final String nodeName;
  private final RateLimitingQueue<String> queue;
  private final PodLifecycle lifecycle;
  private final StatusManager statusManager;
  private final Map<String, SimPod> pods = new ConcurrentHashMap<>();
  private SharedIndexInformer<Pod> informer;

  public PodWorkers(
      Ctx ctx,
      KubernetesClient client,
      String nodeName,
      Manager manager,
      CdiRegistry cdi,
      PodIps ips,
      String nodeIp,
      EventRecorder recorder,
      RateLimitingQueue<String> queue) {
    this.ctx = ctx.withValues("node", nodeName);
    this.client = client;
    this.nodeName = nodeName;
    this.queue = queue;
    this.statusManager =
        new StatusManager(
            this.ctx,
            new PodStatusClient(client),
            this::cachedPod,
            r -> Thread.ofVirtual().name("pod-status-" + nodeName).start(r));
    this.lifecycle =
        new PodLifecycle(
            this.ctx,
            client,
            manager,
            cdi,
            ips,
            nodeIp,
            recorder,
            statusManager,
            this::enqueueLater);
  }

  /**
   * Starts the informer and the dispatcher, which syncs each queued pod on a virtual thread of its
   * own, at most {@code workers} pods at once (the queue never hands out a key that is being
   * synced).
   */
  public void start(int workers) {
    informer =
        client
            .pods()
            .inAnyNamespace()
            .withField("spec.nodeName", nodeName)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(Pod pod) {
                    queue.add(key(pod));
                  }

                  @Override
                  public void onUpdate(Pod oldPod, Pod pod) {
                    queue.add(key(pod));
                  }

                  @Override
                  public void onDelete(Pod pod, boolean unknownFinalState) {
                    queue.add(key(pod));
                  }
                },
                0);
    statusManager.start();
    Semaphore slots = new Semaphore(workers);
    Thread.ofVirtual().name("pod-workers-" + nodeName).start(() -> dispatch(slots));
    ctx.onCancel(() -> {
      queue.shutDown();
      informer.close();
      pods.values().forEach(SimPod::cancelTimer);
    });
  }

  public boolean synced() {
    return informer != null && informer.hasSynced();
  }

  /** UIDs of pods this node considers active (for the DRA manager's reconcile loop). */
  public Set<String> activePodUids() {
    Set<String> out = new HashSet<>();
    if (informer == null || !informer.hasSynced()) {
      return null;
    }
    for (Pod p : informer.getStore().list()) {
      String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
      if (!"Succeeded".equals(phase) && !"Failed".equals(phase)) {
        out.add(p.getMetadata().getUid());
      }
    }
    return out;
  }

  /** Re-syncs the pods with these UIDs (their device health changed). */
  public void resync(Set<String> uids) {
    for (var e : pods.entrySet()) {
      if (uids.contains(e.getValue().uid)) {
        e.getValue().statusDirty = true;
        queue.add(e.getKey());
      }
    }
  }

  /** What the container printed, if this node runs it. */
  public Optional<String> logs(String namespace, String pod, String container) {
    SimPod sp = pods.get(namespace + "/" + pod);
    if (sp == null) {
      return Optional.empty();
    }
    SimPod.Container c = sp.containers.get(container);
    return c == null ? Optional.empty() : Optional.of(c.output());
  }

  /** The informer's copy of a pod (the status manager's pod manager). */
  private StatusManager.ServerPod cachedPod(String key) {
    Pod pod = informer == null ? null : informer.getStore().getByKey(key);
    return pod == null ? null : PodStatuses.serverPod(client.getKubernetesSerialization(), pod);
  }

  private void enqueueLater(String key, Duration after) {
    queue.addAfter(key, after);
  }

  /**
   * Upstream runs one goroutine per pod, so a pod whose driver call hangs for its 45 s timeout
   * delays no other pod; a thread per sync does the same here without idle threads per node.
   */
  private void dispatch(Semaphore slots) {
    while (true) {
      try {
        slots.acquire();
      } catch (InterruptedException e) {
        return;
      }
      String key = queue.get();
      if (key == null) {
        return;
      }
      Thread.ofVirtual()
          .start(() -> {
            try {
              process(key);
            } finally {
              slots.release();
            }
          });
    }
  }

  private void process(String key) {
    try {
      boolean retry = sync(key);
      if (retry) {
        queue.addRateLimited(key);
      } else {
        queue.forget(key);
      }
    } catch (RuntimeException e) {
      ctx.logger().error(e, "Pod sync failed", "pod", key);
      queue.addRateLimited(key);
    } finally {
      queue.done(key);
    }
  }

  /** One sync of a pod; returns true to retry later with backoff. */
  boolean sync(String key) {
    Pod pod = informer.getStore().getByKey(key);
    SimPod sp = pods.get(key);
    if (sp != null && (pod == null || !pod.getMetadata().getUid().equals(sp.uid))) {
      // The pod we ran is gone (deleted for good, or replaced by a new one of the same name).
      if (!lifecycle.gone(sp)) {
        return true;
      }
      pods.remove(key);
      statusManager.forget(sp.uid);
      sp = null;
    }
    if (pod == null) {
      return false;
    }
    Ctx podCtx = ctx.withValues("pod", Klog.kobj(pod));
    if (sp == null) {
      sp =
          new SimPod(
              pod.getMetadata().getUid(),
              pod.getMetadata().getNamespace(),
              pod.getMetadata().getName());
      pods.put(key, sp);
    }
    try {
      return lifecycle.sync(podCtx, pod, sp, key);
    } catch (KubernetesClientException e) {
      podCtx.logger().info("Pod status update failed, will retry", "err", e.getMessage());
      return true;
    } catch (PrepareException e) {
      return true;
    }
  }

  static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
