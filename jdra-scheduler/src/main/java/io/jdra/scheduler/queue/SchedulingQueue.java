package io.jdra.scheduler.queue;

import io.fabric8.kubernetes.api.model.Pod;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.QueuedPodInfo;
import java.util.List;

/**
 * The queue of pods waiting to be scheduled (upstream {@code internalqueue.SchedulingQueue}), with
 * three parts:
 *
 * <ul>
 *   <li>activeQ: pods ready for an attempt, popped by priority then arrival ({@code PrioritySort});
 *   <li>backoffQ: pods that failed recently, until their backoff (1 s doubling per attempt, at most
 *       10 s) has passed;
 *   <li>unschedulable pods: rejected pods (and pods a PreEnqueue plugin gates), moved back only by
 *       a cluster event whose queueing hint says it may help, or after 5 minutes.
 * </ul>
 *
 * Events that arrive while a pod is being scheduled are remembered and applied when the pod comes
 * back rejected, so no event is lost between pop and requeue. Thread-safe: informer threads add,
 * update and move; the scheduling loop pops and requeues. A key is in at most one part at a time.
 */
public interface SchedulingQueue {
  /** A new pending pod (informer add). PreEnqueue decides activeQ or the unschedulable pool. */
  void add(Pod pod);

  /** A pending pod changed. */
  void update(Pod oldPod, Pod newPod);

  /** A pending pod was deleted or got bound by someone else. */
  void delete(Pod pod);

  /**
   * The next pod to schedule; blocks until one is ready or the queue is closed (then null). The pod
   * is "in flight" until {@link #done}.
   */
  QueuedPodInfo pop() throws InterruptedException;

  /** The scheduling attempt of this pod is over (scheduled, requeued or dropped). */
  void done(String uid);

  /**
   * Returns a pod after a failed attempt: to the unschedulable pool when rejected by plugins and no
   * event since its pop may help, else to backoffQ (or activeQ when its backoff already passed). An
   * attempt that ended with an error (no rejecting plugins) always goes through backoffQ.
   */
  void addUnschedulableIfNotPresent(QueuedPodInfo pInfo);

  /** A cluster event: moves the unschedulable pods whose rejecting plugins' hints say QUEUE. */
  void moveAllToActiveOrBackoffQueue(ClusterEvent event, Object oldObj, Object newObj);

  /** Moves pods whose backoff expired from backoffQ to activeQ (every second). */
  void flushBackoffQCompleted();

  /** Moves pods that stayed unschedulable for longer than 5 minutes (every 30 seconds). */
  void flushUnschedulablePodsLeftover();

  /** Pending pods per queue: active, backoff, unschedulable, gated. */
  PendingCounts pendingCounts();

  /** The pods in each part, for tests and debugging. */
  List<String> activePodKeys();

  List<String> backoffPodKeys();

  List<String> unschedulablePodKeys();

  /** Starts the periodic flushes on the queue's clock. */
  void run();

  /** Wakes waiting poppers with null; further adds are ignored. */
  void close();

  /** Counts for {@code scheduler_pending_pods{queue}}. */
  record PendingCounts(int active, int backoff, int unschedulable, int gated) {}
}
