package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.jdra.api.features.FeatureGates;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.scheduler.Profiles;
import io.jdra.scheduler.SchedulerOptions;
import io.jdra.scheduler.SchedulingAlgorithm;
import io.jdra.scheduler.cache.SchedulerCache;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.ClusterEvent.EventResource;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.Parallelizer;
import io.jdra.scheduler.framework.QueuedPodInfo;
import io.jdra.scheduler.framework.Status;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResources;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResourcesArgs;
import io.jdra.scheduler.queue.PriorityQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A discrete-event simulation of a scenario on the real scheduler: jdra-scheduler's default profile
 * (the same plugins, DynamicResources with jdra-allocator), its scheduling queue with queueing
 * hints and backoff, its cache and DRA manager, all on a {@link FakeClock}. What the API server,
 * the ResourceClaim controller and the kubelet would do is done here, in memory and at once: claims
 * are created with their pod, a bound pod runs for its run duration, then its claims are
 * deallocated and deleted. Scheduling takes no simulated time. Every informer event the real
 * components would see is handed to the queue and the DRA manager as the scheduler's handlers do.
 *
 * <p>Single-threaded (filter parallelism 1) and seeded (arrivals, run durations, the scheduler's
 * tie-breaking): one scenario and seed give one result.
 */
final class Simulator {
  static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
  static final String NAMESPACE = "default";
  private static final Duration BACKOFF_TICK = Duration.ofSeconds(1);
  private static final Duration LEFTOVER_TICK = Duration.ofSeconds(30);
  // Pods that fail with errors back off and retry forever; once nothing else happens, give up.
  private static final Duration IDLE_LIMIT = Duration.ofMinutes(15);

  private final Scenario scenario;
  private final SimCluster cluster;
  private final FakeClock clock = new FakeClock(EPOCH);
  private final Ctx ctx;
  private final DraManager dra;
  private final MemoryClaimWriter claims = new MemoryClaimWriter();
  private final SchedulerCache cache = new SchedulerCache();
  private final Parallelizer parallelizer = new Parallelizer(1);
  private final Framework framework;
  private final DynamicResources dynamicResources;
  private final PriorityQueue queue;
  private final SchedulingAlgorithm algorithm;
  private final DeviceUnits units;
  private final List<Workload.Arrival> arrivals;
  private final PodFactory factory;
  private final Recorder recorder;
  private final Map<String, SimPod> pods = new LinkedHashMap<>();
  private final java.util.PriorityQueue<Event> events = new java.util.PriorityQueue<>();
  private final Map<String, String> boundNode = new HashMap<>();
  private long seq;
  private long claimCounter;
  private Instant lastWork = EPOCH;
  private int workEvents; // arrivals, completions and deletions still to come

  private enum Kind {
    ARRIVE,
    FINISH,
    DELETE,
    DELETE_SOME,
    GIVE_UP,
    SAMPLE
  }

  private record Event(Instant at, long seq, Kind kind, Object subject)
      implements Comparable<Event> {
    @Override
    public int compareTo(Event o) {
      int c = at.compareTo(o.at);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  Simulator(Scenario scenario, SimCluster cluster, FeatureGates gates) {
    this.scenario = scenario;
    this.cluster = cluster;
    this.ctx = Ctx.background("simulate").withClock(clock);
    this.dra = Profiles.draManager(gates);
    this.framework =
        Profiles.defaultProfile(
            SchedulerOptions.DEFAULT_SCHEDULER_NAME,
            gates,
            DynamicResourcesArgs.defaults(),
            new Profiles.Dra(dra, claims, () -> clock.now().toEpochMilli() * 1_000_000L),
            new SimBinder(boundNode),
            parallelizer,
            name -> null);
    DynamicResources d = null;
    for (var p : framework.plugins()) {
      if (p instanceof DynamicResources x) {
        d = x;
      }
    }
    this.dynamicResources = d;
    this.queue = new PriorityQueue(ctx.withName("queue"), framework);
    this.algorithm =
        new SchedulingAlgorithm(
            framework,
            SchedulerOptions.defaults().percentageOfNodesToScore(),
            new Random(scenario.seed()));
    this.units = new DeviceUnits(cluster.slices());
    this.factory = new PodFactory(scenario, clock::now);
    this.arrivals = Workload.arrivals(scenario);
    int[] weights = new int[scenario.pods().size()];
    arrivals.forEach(a -> weights[a.template()]++);
    this.recorder =
        new Recorder(
            scenario, units, new Probe(framework, dra, cache, ctx), factory.probes(), weights);
  }

  /** Runs the scenario to its end. */
  SimResult run() {
    try {
      cluster.nodes().forEach(cache::addNode);
      cluster.slices().forEach(dra::sliceChanged);
      cluster.classes().forEach(dra::classChanged);
      recorder.findCapableNodes(
          cluster.nodes().stream()
              .map(n -> n.getMetadata().getName())
              .collect(java.util.stream.Collectors.toSet()));
      arrivals.forEach(a -> push(EPOCH.plus(a.at()), Kind.ARRIVE, a));
      scenario.deletions().forEach(d -> push(EPOCH.plus(d.at()), Kind.DELETE_SOME, d));
      Duration interval = sampleInterval(arrivals);
      push(EPOCH, Kind.SAMPLE, null);
      Instant end = loop(interval);
      recorder.sample(end, pods.values(), cache);
      return recorder.result(Duration.between(EPOCH, end), interval, pods.values());
    } finally {
      parallelizer.close();
    }
  }

  private Instant loop(Duration interval) {
    Instant stop = scenario.duration() == null ? null : EPOCH.plus(scenario.duration());
    while (true) {
      scheduleAll();
      Event next = nextWorkEvent();
      Instant now = clock.now();
      Instant tick = queueTick(now);
      if (next == null && tick == null) {
        return now;
      }
      Instant target =
          next == null ? tick : tick != null && tick.isBefore(next.at) ? tick : next.at;
      if (stop != null && target.isAfter(stop)) {
        drainSamplesUntil(stop, interval);
        clock.setTime(stop);
        return stop;
      }
      clock.setTime(target);
      queue.flushBackoffQCompleted();
      queue.flushUnschedulablePodsLeftover();
      List<Event> samples = new ArrayList<>();
      while (!events.isEmpty() && !events.peek().at.isAfter(target)) {
        Event e = events.poll();
        if (e.kind == Kind.SAMPLE) {
          samples.add(e);
        } else {
          handle(e, interval);
        }
      }
      // A sample shows the instant after the scheduler has dealt with what happened in it.
      if (!samples.isEmpty()) {
        scheduleAll();
        samples.forEach(e -> handle(e, interval));
      }
    }
  }

  /** The next event that changes the cluster; samples alone do not keep the run going. */
  private Event nextWorkEvent() {
    if (workEvents > 0 || scenario.duration() != null) {
      return events.peek();
    }
    return null;
  }

  /**
   * When the queue's periodic flushes have work: every second while pods back off, every 30 s while
   * pods wait as unschedulable (they are retried after 5 minutes); null when neither.
   */
  private Instant queueTick(Instant now) {
    var counts = queue.pendingCounts();
    boolean idle = nextWorkEvent() == null && scenario.duration() == null;
    if (counts.backoff() > 0 && !(idle && now.isAfter(lastWork.plus(IDLE_LIMIT)))) {
      return now.plus(BACKOFF_TICK);
    }
    if (counts.unschedulable() > 0 && (workEvents > 0 || scenario.duration() != null)) {
      return now.plus(LEFTOVER_TICK);
    }
    return null;
  }

  private void drainSamplesUntil(Instant stop, Duration interval) {
    while (!events.isEmpty() && !events.peek().at.isAfter(stop)) {
      Event e = events.poll();
      clock.setTime(e.at);
      handle(e, interval);
    }
  }

  private Event push(Instant at, Kind kind, Object subject) {
    Event e = new Event(at, seq++, kind, subject);
    events.add(e);
    if (kind != Kind.SAMPLE) {
      workEvents++;
    }
    return e;
  }

  private void handle(Event e, Duration interval) {
    if (e.kind != Kind.SAMPLE) {
      lastWork = e.at;
      workEvents--;
    }
    switch (e.kind) {
      case ARRIVE -> arrive((Workload.Arrival) e.subject);
      case FINISH -> finish((SimPod) e.subject, SimPod.Phase.COMPLETED);
      case DELETE -> finish((SimPod) e.subject, SimPod.Phase.DELETED);
      case DELETE_SOME -> deleteSome((Scenario.Deletion) e.subject);
      case GIVE_UP -> {
        SimPod p = (SimPod) e.subject;
        if (p.phase == SimPod.Phase.PENDING) {
          finish(p, SimPod.Phase.DELETED);
        }
      }
      case SAMPLE -> {
        recorder.sample(e.at, pods.values(), cache);
        push(e.at.plus(interval), Kind.SAMPLE, null);
      }
    }
    deliverClaimEvents();
  }

  // ---- the workload: what the API server, the claim controller and the kubelet would do --------

  private void arrive(Workload.Arrival a) {
    Scenario.PodTemplate t = scenario.pods().get(a.template());
    String name = t.name() + "-" + a.index();
    String uid = Ids.uid("pod", name);
    PodFactory.Built b = factory.build(a.template(), name, uid, () -> Ids.suffix(claimCounter++));
    List<String> keys = new ArrayList<>();
    for (ResourceClaim c : b.claims()) {
      keys.add(MemoryClaimWriter.key(claims.create(c)));
    }
    SimPod p = new SimPod(a.template(), name, uid, clock.now(), a.runFor(), keys, b.pod());
    pods.put(uid, p);
    recorder.created();
    // The claims exist before the pod reaches the queue, as once the claim controller has run.
    deliverClaimEvents();
    queue.add(b.pod());
    if (t.deleteAfter() != null) {
      p.scheduled.add(push(clock.now().plus(t.deleteAfter()), Kind.DELETE, p));
    }
    if (t.pendingTimeout() != null) {
      p.scheduled.add(push(clock.now().plus(t.pendingTimeout()), Kind.GIVE_UP, p));
    }
  }

  /** A scenario's deletion: the oldest matching pods of the template, in creation order. */
  private void deleteSome(Scenario.Deletion d) {
    List<SimPod> victims = new ArrayList<>();
    for (SimPod p : pods.values()) {
      if (!scenario.pods().get(p.template).name().equals(d.template())) {
        continue;
      }
      boolean match =
          switch (d.phase()) {
            case "Pending" -> p.phase == SimPod.Phase.PENDING;
            case "Running" -> p.phase == SimPod.Phase.RUNNING;
            default -> p.phase == SimPod.Phase.PENDING || p.phase == SimPod.Phase.RUNNING;
          };
      if (match && (d.count() == 0 || victims.size() < d.count())) {
        victims.add(p);
      }
    }
    victims.forEach(p -> finish(p, SimPod.Phase.DELETED));
  }

  /** A pod ends (its run duration passed) or is deleted; its claims are released and deleted. */
  private void finish(SimPod p, SimPod.Phase how) {
    if (p.phase == SimPod.Phase.COMPLETED || p.phase == SimPod.Phase.DELETED) {
      return;
    }
    if (p.phase == SimPod.Phase.PENDING) {
      queue.delete(p.pod);
      recorder.deletedPending(p);
    } else {
      Pod old = p.pod;
      p.pod =
          new PodBuilder(old)
              .editStatus()
              .withPhase(how == SimPod.Phase.COMPLETED ? "Succeeded" : "Failed")
              .endStatus()
              .build();
      cache.removePod(p.pod);
      queue.moveAllToActiveOrBackoffQueue(
          ClusterEvent.of(EventResource.ASSIGNED_POD, ClusterEvent.DELETE, "AssignedPodDelete"),
          old,
          null);
      recorder.ended(p, how);
    }
    p.phase = how;
    // Its other event (a deletion before the end of its run, or the reverse) is moot now.
    for (Object e : p.scheduled) {
      if (events.remove(e)) {
        workEvents--;
      }
    }
    p.scheduled.clear();
    for (String key : p.claimKeys) {
      ResourceClaim c = claims.get(key);
      if (c == null) {
        continue;
      }
      if (c.getStatus() != null && c.getStatus().getAllocation() != null) {
        units.apply(c.getStatus().getAllocation(), -1);
        List<ResourceClaimConsumerReference> keep = new ArrayList<>();
        for (ResourceClaimConsumerReference r : ResourceClaims.reservedFor(c)) {
          if (!r.getUid().equals(p.uid)) {
            keep.add(r);
          }
        }
        claims.update(
            new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder(c)
                .editStatus()
                .withReservedFor(keep)
                .withAllocation(keep.isEmpty() ? null : c.getStatus().getAllocation())
                .endStatus()
                .build());
      }
      claims.delete(key);
    }
  }

  /** Claim writes reach the scheduler as informer events: the DRA manager, then the queue. */
  private void deliverClaimEvents() {
    for (MemoryClaimWriter.Change ch : claims.drainEvents()) {
      if (ch.oldClaim() == null) {
        dra.claimChanged(ch.newClaim());
        queue.moveAllToActiveOrBackoffQueue(
            ClusterEvent.of(EventResource.RESOURCE_CLAIM, ClusterEvent.ADD, "ResourceClaimAdd"),
            null,
            ch.newClaim());
      } else if (ch.newClaim() == null) {
        dra.claimDeleted(ch.oldClaim());
        queue.moveAllToActiveOrBackoffQueue(
            ClusterEvent.of(
                EventResource.RESOURCE_CLAIM, ClusterEvent.DELETE, "ResourceClaimDelete"),
            ch.oldClaim(),
            null);
      } else {
        dra.claimChanged(ch.newClaim());
        queue.moveAllToActiveOrBackoffQueue(
            ClusterEvent.of(
                EventResource.RESOURCE_CLAIM, ClusterEvent.UPDATE_OTHER, "ResourceClaimUpdate"),
            ch.oldClaim(),
            ch.newClaim());
      }
    }
  }

  // ---- the scheduler: upstream's scheduleOne, synchronously ------------------------------------

  private void scheduleAll() {
    for (QueuedPodInfo p = queue.tryPop(); p != null; p = queue.tryPop()) {
      try {
        scheduleOne(p);
      } finally {
        queue.done(p.uid());
      }
      deliverClaimEvents();
    }
  }

  private void scheduleOne(QueuedPodInfo p) {
    SimPod sp = pods.get(p.uid());
    if (sp == null || sp.phase != SimPod.Phase.PENDING) {
      return;
    }
    CycleState state = new CycleState();
    SchedulingAlgorithm.Result result =
        algorithm.schedule(ctx, state, p.podInfo(), cache.snapshot());
    switch (result) {
      case SchedulingAlgorithm.Failed f -> failed(p, sp, f.status(), null, state);
      case SchedulingAlgorithm.FitError fe -> fitError(p, sp, state, fe);
      case SchedulingAlgorithm.Scheduled s -> assumeAndBind(p, sp, state, s.node());
    }
  }

  private void fitError(
      QueuedPodInfo p, SimPod sp, CycleState state, SchedulingAlgorithm.FitError fe) {
    if (framework.hasPostFilterPlugins() && fe.diagnosis().preFilterMsg() == null) {
      Status post =
          framework.runPostFilterPlugins(ctx, state, p.podInfo(), fe.diagnosis().nodeToStatus());
      if (post.isError()) {
        fe.diagnosis().setPostFilterMsg(post.message());
      } else if (!post.message().isEmpty()) {
        fe.diagnosis().setPostFilterMsg(post.message() + ".");
      }
    }
    String msg = fe.message();
    String why = framework.explainFailure(state, p.podInfo());
    if (why != null && !why.isEmpty()) {
      msg = msg + " " + why;
    }
    p.unschedulablePlugins().addAll(fe.diagnosis().unschedulablePlugins());
    p.pendingPlugins().addAll(fe.diagnosis().pendingPlugins());
    sp.lastMessage = msg;
    recorder.unschedulable(
        sp,
        Reasons.of(
            fe.diagnosis(),
            dynamicResources == null ? Map.of() : dynamicResources.explanations(state),
            this::podClaimName),
        msg);
    queue.addUnschedulableIfNotPresent(p);
  }

  private void failed(QueuedPodInfo p, SimPod sp, Status s, String node, CycleState state) {
    if (node != null) {
      framework.runUnreservePlugins(ctx, state, p.podInfo(), node);
      cache.forgetPod(p.podInfo());
    }
    if (s.isRejected() && s.plugin() != null) {
      p.unschedulablePlugins().add(s.plugin());
    }
    sp.lastMessage = s.message();
    recorder.error(sp, s);
    queue.addUnschedulableIfNotPresent(p);
  }

  private void assumeAndBind(QueuedPodInfo p, SimPod sp, CycleState state, String node) {
    cache.assumePod(p.podInfo(), node);
    Status r = framework.runReservePlugins(ctx, state, p.podInfo(), node);
    if (!Status.ok(r)) {
      failed(p, sp, r, node, state);
      return;
    }
    Status s;
    try {
      s = framework.runPreBindPlugins(ctx, state, p.podInfo(), node);
      if (Status.ok(s)) {
        s = framework.runBindPlugins(ctx, state, p.podInfo(), node);
      }
    } catch (RuntimeException e) {
      s = Status.error(e);
    }
    if (!Status.ok(s)) {
      failed(p, sp, s, node, state);
      return;
    }
    bound(sp, node);
  }

  /** The binding reached the API: the pod's informer update, the claims' allocation counted. */
  private void bound(SimPod sp, String node) {
    Pod old = sp.pod;
    sp.pod =
        new PodBuilder(old)
            .editSpec()
            .withNodeName(node)
            .endSpec()
            .editStatus()
            .withPhase("Running")
            .endStatus()
            .build();
    queue.delete(sp.pod);
    cache.updatePod(sp.pod);
    sp.phase = SimPod.Phase.RUNNING;
    // A pending timeout no longer applies to a pod that runs.
    sp.scheduled.removeIf(o -> {
      Event e = (Event) o;
      if (e.kind == Kind.GIVE_UP && events.remove(e)) {
        workEvents--;
        return true;
      }
      return false;
    });
    sp.bound = clock.now();
    sp.node = node;
    for (String key : sp.claimKeys) {
      ResourceClaim c = claims.get(key);
      if (c != null && c.getStatus() != null) {
        units.apply(c.getStatus().getAllocation(), 1);
        recorder.allocated(sp, c.getStatus().getAllocation());
      }
    }
    recorder.bound(sp);
    if (sp.runFor != null) {
      sp.scheduled.add(push(clock.now().plus(sp.runFor), Kind.FINISH, sp));
    }
  }

  /** {@code ns/claim} to the claim's name in its pod, for grouping explanations by template. */
  private String podClaimName(String claimKey) {
    ResourceClaim c = claims.get(claimKey);
    if (c == null || c.getMetadata().getAnnotations() == null) {
      return claimKey;
    }
    String n = c.getMetadata().getAnnotations().get(ResourceClaims.POD_CLAIM_NAME_ANNOTATION);
    return n == null ? claimKey : n;
  }

  /** The sample interval: as given, or about 200 samples over the expected length of the run. */
  private Duration sampleInterval(List<Workload.Arrival> arrivals) {
    if (scenario.sampleInterval() != null) {
      return scenario.sampleInterval();
    }
    Duration span = scenario.duration();
    if (span == null) {
      span = Duration.ZERO;
      for (Workload.Arrival a : arrivals) {
        Duration e = a.runFor() == null ? a.at() : a.at().plus(a.runFor());
        if (e.compareTo(span) > 0) {
          span = e;
        }
      }
    }
    long target = Math.max(1, span.toSeconds() / 200);
    for (long nice : new long[] {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600}) {
      if (nice >= target) {
        return Duration.ofSeconds(nice);
      }
    }
    return Duration.ofSeconds(target);
  }
}
