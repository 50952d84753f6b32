package io.jdra.scheduler.queue;

import io.fabric8.kubernetes.api.model.Pod;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.Clock;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.QueuedPodInfo;
import io.jdra.scheduler.framework.QueueingHint;
import io.jdra.scheduler.framework.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The scheduling queue of one profile (upstream {@code PriorityQueue}); see {@link SchedulingQueue}
 * for the contract. One lock guards everything; queueing hints run under it, as upstream, so they
 * must be cheap.
 */
public final class PriorityQueue implements SchedulingQueue {
  /** Upstream {@code DefaultPodInitialBackoffDuration}. */
  public static final Duration DEFAULT_POD_INITIAL_BACKOFF = Duration.ofSeconds(1);

  /** Upstream {@code DefaultPodMaxBackoffDuration}. */
  public static final Duration DEFAULT_POD_MAX_BACKOFF = Duration.ofSeconds(10);

  /** Upstream {@code DefaultPodMaxInUnschedulablePodsDuration}. */
  public static final Duration DEFAULT_MAX_IN_UNSCHEDULABLE = Duration.ofMinutes(5);

  private final Ctx ctx;
  private final Clock clock;
  private final Framework framework;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Map<String, QueueingHint.EventWithHint[]> hints;

  /**
   * Per event resource, the actions some plugin registered for (upstream {@code
   * isEventOfInterest}); an event no plugin registered for moves no pod and is not recorded for
   * in-flight pods.
   */
  private final int[] interestingActions = new int[ClusterEvent.EventResource.values().length];

  private boolean wildcardRegistered;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final java.util.PriorityQueue<QueuedPodInfo> activeQ;
  private final java.util.PriorityQueue<QueuedPodInfo> backoffQ;
  private final Map<String, QueuedPodInfo> unschedulable = new LinkedHashMap<>();

  /** The unschedulable pool indexed by what its pods wait for (see {@link WaitingIndex}). */
  private final WaitingIndex waiting;

  /** uid -> the part the pod is in: activeQ, backoffQ, unschedulable. */
  private final Map<String, QueuedPodInfo> queued = new HashMap<>();

  /** uid -> sequence number of the first event recorded after its pop. */
  private final Map<String, Long> inFlight = new HashMap<>();

  private final List<RecordedEvent> inFlightEvents = new ArrayList<>();
  private long eventSeq;
  private boolean closed;

  private record RecordedEvent(long seq, ClusterEvent event, Object oldObj, Object newObj) {}

  public PriorityQueue(Ctx ctx, Framework framework) {
    this(ctx, framework, DEFAULT_POD_INITIAL_BACKOFF, DEFAULT_POD_MAX_BACKOFF);
  }

  public PriorityQueue(Ctx ctx, Framework framework, Duration initialBackoff, Duration maxBackoff) {
    this.ctx = ctx;
    this.clock = ctx.clock();
    this.framework = framework;
    this.initialBackoff = initialBackoff;
    this.maxBackoff = maxBackoff;
    this.hints = new HashMap<>();
    Set<QueueingHint.Narrowing> narrowings = Collections.newSetFromMap(new IdentityHashMap<>());
    framework
        .eventsToRegister()
        .forEach((plugin, list) -> {
          hints.put(plugin, list.toArray(QueueingHint.EventWithHint[]::new));
          for (QueueingHint.EventWithHint h : list) {
            if (h.narrowing() != null) {
              narrowings.add(h.narrowing());
            }
            ClusterEvent e = h.event();
            if (e.resource() == ClusterEvent.EventResource.WILDCARD) {
              wildcardRegistered = true;
            } else {
              interestingActions[e.resource().ordinal()] |= e.actions();
            }
          }
        });
    this.waiting = new WaitingIndex(new ArrayList<>(narrowings));
    Comparator<QueuedPodInfo> less =
        (a, b) -> framework.queueSort().less(a, b) ? -1 : framework.queueSort().less(b, a) ? 1 : 0;
    this.activeQ = new java.util.PriorityQueue<>(less);
    this.backoffQ =
        new java.util.PriorityQueue<>(
            Comparator.comparing(this::backoffExpiry).thenComparing(QueuedPodInfo::timestamp));
  }

  @Override
  public void add(Pod pod) {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      String uid = pod.getMetadata().getUid();
      if (queued.containsKey(uid) || inFlight.containsKey(uid)) {
        return;
      }
      QueuedPodInfo p = new QueuedPodInfo(new PodInfo(pod), clock.now());
      moveToActiveQ(p);
    } finally {
      lock.unlock();
    }
  }

  /** PreEnqueue decides: activeQ, or the unschedulable pool gated by the plugin. */
  private void moveToActiveQ(QueuedPodInfo p) {
    Status s = framework.runPreEnqueuePlugins(p.podInfo().pod());
    if (!Status.ok(s)) {
      p.setGatingPlugin(s.plugin());
      ctx.logger()
          .v(5)
          .info("Pod gated by PreEnqueue", "pod", p.key(), "plugin", s.plugin(), "reason", s);
      park(p);
      return;
    }
    p.setGatingPlugin(null);
    activeQ.add(p);
    queued.put(p.uid(), p);
    notEmpty.signal();
  }

  @Override
  public void update(Pod oldPod, Pod newPod) {
    lock.lock();
    try {
      String uid = newPod.getMetadata().getUid();
      QueuedPodInfo p = queued.get(uid);
      if (p == null) {
        if (!inFlight.containsKey(uid)) {
          add(newPod);
        } else {
          record(targetPodEvent(oldPod, newPod), oldPod, newPod);
        }
        return;
      }
      if (!unschedulable.containsKey(uid)) {
        // In activeQ or backoffQ (asking those PriorityQueues would scan them).
        p.setPodInfo(new PodInfo(newPod));
        return;
      }
      // In the unschedulable pool: the pod's own change may be what it waited for.
      p.setPodInfo(new PodInfo(newPod));
      waiting.reindex(p);
      ClusterEvent ev = targetPodEvent(oldPod, newPod);
      if (isPodWorthRequeuing(p, ev, oldPod, newPod)) {
        unpark(p);
        requeue(p, ev);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Which part of the pod changed, as upstream's pod update events. */
  static ClusterEvent targetPodEvent(Pod oldPod, Pod newPod) {
    int actions = 0;
    if (!java.util.Objects.equals(
        oldPod.getMetadata().getLabels(), newPod.getMetadata().getLabels())) {
      actions |= ClusterEvent.UPDATE_POD_LABEL;
    }
    if (!java.util.Objects.equals(
        oldPod.getSpec().getTolerations(), newPod.getSpec().getTolerations())) {
      actions |= ClusterEvent.UPDATE_POD_TOLERATIONS;
    }
    if (!gates(oldPod).isEmpty() && gates(newPod).isEmpty()) {
      actions |= ClusterEvent.UPDATE_POD_SCHEDULING_GATES_ELIMINATED;
    }
    if (!java.util.Objects.equals(claimStatuses(oldPod), claimStatuses(newPod))) {
      actions |= ClusterEvent.UPDATE_POD_GENERATED_RESOURCE_CLAIM;
    }
    if (actions == 0) {
      actions = ClusterEvent.UPDATE_OTHER;
    }
    return ClusterEvent.of(
        ClusterEvent.EventResource.TARGET_POD, actions, "UnschedulablePodUpdate");
  }

  private static List<?> gates(Pod p) {
    return p.getSpec().getSchedulingGates() == null ? List.of() : p.getSpec().getSchedulingGates();
  }

  private static Object claimStatuses(Pod p) {
    return p.getStatus() == null ? null : p.getStatus().getResourceClaimStatuses();
  }

  @Override
  public void delete(Pod pod) {
    lock.lock();
    try {
      String uid = pod.getMetadata().getUid();
      QueuedPodInfo p = queued.remove(uid);
      if (p != null && unschedulable.remove(uid) != null) {
        waiting.remove(p);
      } else if (p != null && !activeQ.remove(p)) {
        backoffQ.remove(p);
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public QueuedPodInfo pop() throws InterruptedException {
    lock.lock();
    try {
      while (activeQ.isEmpty() && !closed) {
        notEmpty.await();
      }
      if (closed) {
        return null;
      }
      QueuedPodInfo p = activeQ.poll();
      queued.remove(p.uid());
      p.incrementAttempts();
      p.unschedulablePlugins().clear();
      p.pendingPlugins().clear();
      inFlight.put(p.uid(), eventSeq);
      return p;
    } finally {
      lock.unlock();
    }
  }

  /** Pops without blocking (tests, benchmarks); null when activeQ is empty. */
  public QueuedPodInfo tryPop() {
    lock.lock();
    try {
      if (activeQ.isEmpty()) {
        return null;
      }
      return pop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void done(String uid) {
    lock.lock();
    try {
      if (inFlight.remove(uid) == null) {
        return;
      }
      if (inFlight.isEmpty()) {
        inFlightEvents.clear();
        return;
      }
      long min = Long.MAX_VALUE;
      for (long s : inFlight.values()) {
        min = Math.min(min, s);
      }
      long oldest = min;
      inFlightEvents.removeIf(e -> e.seq() < oldest);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void addUnschedulableIfNotPresent(QueuedPodInfo p) {
    lock.lock();
    try {
      if (closed || queued.containsKey(p.uid())) {
        return;
      }
      Long since = inFlight.get(p.uid());
      p.setTimestamp(clock.now());
      if (p.unschedulablePlugins().isEmpty() && p.pendingPlugins().isEmpty()) {
        // An error, not a rejection: retry after the backoff.
        backoffQ.add(p);
        queued.put(p.uid(), p);
        return;
      }
      if (since != null) {
        for (RecordedEvent e : inFlightEvents) {
          if (e.seq() >= since && isPodWorthRequeuing(p, e.event(), e.oldObj(), e.newObj())) {
            requeue(p, e.event());
            return;
          }
        }
      }
      park(p);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void moveAllToActiveOrBackoffQueue(ClusterEvent event, Object oldObj, Object newObj) {
    lock.lock();
    try {
      if (!isEventOfInterest(event)) {
        return;
      }
      record(event, oldObj, newObj);
      if (unschedulable.isEmpty()) {
        return;
      }
      List<QueuedPodInfo> move = null;
      Collection<QueuedPodInfo> candidates = candidates(event, oldObj, newObj);
      for (QueuedPodInfo p : candidates == null ? unschedulable.values() : candidates) {
        if (p.gatingPlugin() != null && !registered(p.gatingPlugin(), event)) {
          // Upstream: an event the gating plugin did not register for never moves the pod.
          continue;
        }
        if (isPodWorthRequeuing(p, event, oldObj, newObj)) {
          if (move == null) {
            move = new ArrayList<>();
          }
          move.add(p);
        }
      }
      if (move == null) {
        return;
      }
      for (QueuedPodInfo p : move) {
        unpark(p);
        requeue(p, event);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The unschedulable pods whose hints for this event may say queue, in pool order, when every hint
   * registered for it narrows (see {@link QueueingHint.Narrowing}); null: all of them.
   */
  private Collection<QueuedPodInfo> candidates(ClusterEvent ev, Object oldObj, Object newObj) {
    if (ev.resource() == ClusterEvent.EventResource.WILDCARD || wildcardRegistered) {
      return null;
    }
    Set<QueuedPodInfo> found = new LinkedHashSet<>();
    for (QueueingHint.EventWithHint[] list : hints.values()) {
      for (QueueingHint.EventWithHint h : list) {
        if (!h.event().matches(ev)) {
          continue;
        }
        String key = h.narrowing() == null ? null : h.narrowing().eventKey(oldObj, newObj);
        if (key == null) {
          return null;
        }
        waiting.collect(h.narrowing(), key, found);
      }
    }
    return waiting.inPoolOrder(found);
  }

  /** Into the unschedulable pool. */
  private void park(QueuedPodInfo p) {
    unschedulable.put(p.uid(), p);
    queued.put(p.uid(), p);
    waiting.add(p);
  }

  /** Out of the unschedulable pool (the caller puts it elsewhere). */
  private void unpark(QueuedPodInfo p) {
    unschedulable.remove(p.uid());
    queued.remove(p.uid());
    waiting.remove(p);
  }

  private void record(ClusterEvent event, Object oldObj, Object newObj) {
    if (!inFlight.isEmpty()) {
      inFlightEvents.add(new RecordedEvent(eventSeq, event, oldObj, newObj));
    }
    eventSeq++;
  }

  /** Back into activeQ (through PreEnqueue) or into backoffQ while backing off. */
  private void requeue(QueuedPodInfo p, ClusterEvent event) {
    ctx.logger()
        .v(5)
        .info("Pod moved to an active or backoff queue", "pod", p.key(), "event", event.label());
    if (p.gatingPlugin() == null && isBackingOff(p)) {
      backoffQ.add(p);
      queued.put(p.uid(), p);
      return;
    }
    moveToActiveQ(p);
  }

  /** Upstream {@code isEventOfInterest}: a wildcard event, or one some plugin registered for. */
  private boolean isEventOfInterest(ClusterEvent ev) {
    if (ev.resource() == ClusterEvent.EventResource.WILDCARD || wildcardRegistered) {
      return true;
    }
    return (interestingActions[ev.resource().ordinal()] & ev.actions()) != 0;
  }

  /** Whether the plugin registered an event that covers this one. */
  private boolean registered(String plugin, ClusterEvent ev) {
    for (QueueingHint.EventWithHint h : hints.getOrDefault(plugin, NO_HINTS)) {
      if (h.event().matches(ev)) {
        return true;
      }
    }
    return false;
  }

  private static final QueueingHint.EventWithHint[] NO_HINTS = {};

  /**
   * Whether any plugin that rejected the pod says this event may help (upstream logic). Runs for
   * every unschedulable pod on every event of interest, so it walks the rejectors in place rather
   * than collecting them into a new set.
   */
  private boolean isPodWorthRequeuing(QueuedPodInfo p, ClusterEvent ev, Object o, Object n) {
    if (ev == ClusterEvent.UNSCHEDULABLE_TIMEOUT || ev == ClusterEvent.FORCE_ACTIVATE) {
      return true;
    }
    if (p.gatingPlugin() != null) {
      return pluginSaysQueue(p, p.gatingPlugin(), ev, o, n);
    }
    if (p.unschedulablePlugins().isEmpty() && p.pendingPlugins().isEmpty()) {
      return true;
    }
    for (String plugin : p.unschedulablePlugins()) {
      if (pluginSaysQueue(p, plugin, ev, o, n)) {
        return true;
      }
    }
    for (String plugin : p.pendingPlugins()) {
      if (!p.unschedulablePlugins().contains(plugin) && pluginSaysQueue(p, plugin, ev, o, n)) {
        return true;
      }
    }
    return false;
  }

  private boolean pluginSaysQueue(
      QueuedPodInfo p, String plugin, ClusterEvent ev, Object o, Object n) {
    for (QueueingHint.EventWithHint h : hints.getOrDefault(plugin, NO_HINTS)) {
      if (!h.event().matches(ev)) {
        continue;
      }
      if (h.hint() == null) {
        return true;
      }
      try {
        if (h.hint().hint(p.podInfo().pod(), o, n) == QueueingHint.QUEUE) {
          return true;
        }
      } catch (Exception e) {
        ctx.logger()
            .error(e, "QueueingHint failed, queueing the pod", "pod", p.key(), "plugin", plugin);
        return true;
      }
    }
    return false;
  }

  private boolean isBackingOff(QueuedPodInfo p) {
    return backoffExpiry(p).isAfter(clock.now());
  }

  private Instant backoffExpiry(QueuedPodInfo p) {
    return p.timestamp().plus(backoffDuration(p.attempts()));
  }

  /** Initial backoff doubled per attempt after the first, capped at the maximum. */
  Duration backoffDuration(int attempts) {
    if (attempts <= 0) {
      return Duration.ZERO;
    }
    Duration d = initialBackoff;
    for (int i = 1; i < attempts; i++) {
      d = d.multipliedBy(2);
      if (d.compareTo(maxBackoff) >= 0) {
        return maxBackoff;
      }
    }
    return d;
  }

  @Override
  public void flushBackoffQCompleted() {
    lock.lock();
    try {
      Instant now = clock.now();
      while (!backoffQ.isEmpty() && !backoffExpiry(backoffQ.peek()).isAfter(now)) {
        QueuedPodInfo p = backoffQ.poll();
        queued.remove(p.uid());
        moveToActiveQ(p);
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void flushUnschedulablePodsLeftover() {
    lock.lock();
    try {
      Instant now = clock.now();
      List<QueuedPodInfo> move = new ArrayList<>();
      for (Iterator<QueuedPodInfo> it = unschedulable.values().iterator(); it.hasNext(); ) {
        QueuedPodInfo p = it.next();
        if (p.gatingPlugin() == null
            && !now.isBefore(p.timestamp().plus(DEFAULT_MAX_IN_UNSCHEDULABLE))) {
          move.add(p);
        }
      }
      for (QueuedPodInfo p : move) {
        unpark(p);
        requeue(p, ClusterEvent.UNSCHEDULABLE_TIMEOUT);
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public PendingCounts pendingCounts() {
    lock.lock();
    try {
      int gated = 0;
      for (QueuedPodInfo p : unschedulable.values()) {
        if (p.gatingPlugin() != null) {
          gated++;
        }
      }
      return new PendingCounts(
          activeQ.size(), backoffQ.size(), unschedulable.size() - gated, gated);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public List<String> activePodKeys() {
    lock.lock();
    try {
      return activeQ.stream().sorted(activeQ.comparator()).map(QueuedPodInfo::key).toList();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public List<String> backoffPodKeys() {
    lock.lock();
    try {
      return backoffQ.stream().sorted(backoffQ.comparator()).map(QueuedPodInfo::key).toList();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public List<String> unschedulablePodKeys() {
    lock.lock();
    try {
      return unschedulable.values().stream().map(QueuedPodInfo::key).toList();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void run() {
    scheduleFlush(Duration.ofSeconds(1), this::flushBackoffQCompleted);
    scheduleFlush(Duration.ofSeconds(30), this::flushUnschedulablePodsLeftover);
  }

  private void scheduleFlush(Duration every, Runnable task) {
    clock.schedule(
        every,
        () -> {
          if (ctx.isCancelled() || closed) {
            return;
          }
          try {
            task.run();
          } finally {
            scheduleFlush(every, task);
          }
        });
  }

  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
