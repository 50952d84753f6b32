package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.scheduler.cache.SchedulerCache;
import io.jdra.scheduler.framework.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Collects what the simulation reports: counts, pending times, reasons and the time series. */
final class Recorder {
  /** A template's probe pod and claims for the fragmentation measure (null: no claims). */
  record ProbeSpec(Pod pod, List<ResourceClaim> claims) {}

  private static final class Group {
    final Set<String> pods = new LinkedHashSet<>();
    int attempts;
    long nodes;
    String example;
  }

  private final Scenario scenario;
  private final DeviceUnits units;
  private final Probe probe;
  private final List<ProbeSpec> probes;
  private final int[] weights;
  private final Map<Integer, Set<String>> driversByTemplate = new HashMap<>();
  private final Map<Integer, Set<String>> capable = new HashMap<>();
  private final Map<Integer, List<Double>> pendingSeconds = new TreeMap<>();
  private final Map<List<String>, Group> groups = new LinkedHashMap<>();
  private final Map<String, Long> attempts = new LinkedHashMap<>();
  private final Map<String, Integer> failedAttempts = new TreeMap<>();
  private final List<SimResult.Sample> samples = new ArrayList<>();
  private int created;
  private int scheduled;
  private int completed;
  private int deletedPending;
  private int deletedRunning;

  Recorder(
      Scenario scenario, DeviceUnits units, Probe probe, List<ProbeSpec> probes, int[] weights) {
    this.scenario = scenario;
    this.units = units;
    this.probe = probe;
    this.probes = probes;
    this.weights = weights;
    attempts.put("scheduled", 0L);
    attempts.put("unschedulable", 0L);
    attempts.put("error", 0L);
  }

  void created() {
    created++;
  }

  void bound(SimPod p) {
    scheduled++;
    attempts.merge("scheduled", 1L, Long::sum);
    pendingSeconds
        .computeIfAbsent(p.template, k -> new ArrayList<>())
        .add(Duration.between(p.created, p.bound).toMillis() / 1000.0);
  }

  void allocated(SimPod p, AllocationResult a) {
    driversByTemplate
        .computeIfAbsent(p.template, k -> new TreeSet<>())
        .addAll(DeviceUnits.driversOf(a));
  }

  void ended(SimPod p, SimPod.Phase how) {
    if (how == SimPod.Phase.COMPLETED) {
      completed++;
    } else {
      deletedRunning++;
    }
  }

  void deletedPending(SimPod p) {
    deletedPending++;
  }

  void unschedulable(SimPod p, Map<String, Integer> reasons, String message) {
    attempts.merge("unschedulable", 1L, Long::sum);
    String template = scenario.pods().get(p.template).name();
    failedAttempts.merge(template, 1, Integer::sum);
    for (Map.Entry<String, Integer> r : reasons.entrySet()) {
      Group g = groups.computeIfAbsent(List.of(template, r.getKey()), k -> new Group());
      g.pods.add(p.uid);
      g.attempts++;
      g.nodes += r.getValue();
      if (g.example == null) {
        g.example = message;
      }
    }
  }

  void error(SimPod p, Status s) {
    attempts.merge(s.isError() ? "error" : "unschedulable", 1L, Long::sum);
    String template = scenario.pods().get(p.template).name();
    failedAttempts.merge(template, 1, Integer::sum);
    Group g =
        groups.computeIfAbsent(
            List.of(template, (s.isError() ? "error: " : "") + s.message()), k -> new Group());
    g.pods.add(p.uid);
    g.attempts++;
    if (g.example == null) {
      g.example = s.message();
    }
  }

  /**
   * Finds, on the empty cluster, the nodes where a pod of each template fits at all: only free
   * units there can be stranded. A template that fits nowhere has no fragmentation (it is
   * unschedulable, which the reasons report).
   */
  void findCapableNodes(Set<String> nodes) {
    for (int i = 0; i < probes.size(); i++) {
      ProbeSpec ps = probes.get(i);
      capable.put(i, ps == null ? Set.of() : probe.fits(ps.pod(), ps.claims(), nodes));
    }
  }

  /** The state now. */
  void sample(Instant at, Collection<SimPod> pods, SchedulerCache cache) {
    double t = Duration.between(Simulator.EPOCH, at).toMillis() / 1000.0;
    if (!samples.isEmpty() && samples.get(samples.size() - 1).seconds() == t) {
      samples.remove(samples.size() - 1);
    }
    int pending = 0;
    int running = 0;
    for (SimPod p : pods) {
      if (p.phase == SimPod.Phase.PENDING) {
        pending++;
      } else if (p.phase == SimPod.Phase.RUNNING) {
        running++;
      }
    }
    Map<String, Double> util = new TreeMap<>();
    for (String d : units.drivers()) {
      util.put(d, units.total(d) == 0 ? 0 : units.used(d) / units.total(d));
    }
    Map<String, Double> frag = new LinkedHashMap<>();
    double sum = 0;
    double weight = 0;
    for (int i = 0; i < probes.size(); i++) {
      ProbeSpec ps = probes.get(i);
      if (ps == null || capable.get(i).isEmpty()) {
        continue;
      }
      double f = fragmentation(i, ps);
      frag.put(scenario.pods().get(i).name(), f);
      sum += f * weights[i];
      weight += weights[i];
    }
    samples.add(
        new SimResult.Sample(
            t, pending, running, scheduled, completed, util, weight == 0 ? 0 : sum / weight, frag));
  }

  /**
   * The share of the free device units (of the drivers this template's pods were given devices of,
   * or all) that sit on nodes where a pod of the template would not fit now.
   */
  private double fragmentation(int template, ProbeSpec ps) {
    Set<String> drivers = driversByTemplate.getOrDefault(template, units.drivers());
    Map<String, Double> free = units.freeByNode(drivers);
    double total = 0;
    Set<String> candidates = new TreeSet<>();
    for (Map.Entry<String, Double> e : free.entrySet()) {
      if (e.getValue() > 1e-9 && capable.get(template).contains(e.getKey())) {
        total += e.getValue();
        candidates.add(e.getKey());
      }
    }
    if (total < 1e-9) {
      return 0;
    }
    Set<String> fits = probe.fits(ps.pod(), ps.claims(), candidates);
    double stranded = 0;
    for (String n : candidates) {
      if (!fits.contains(n)) {
        stranded += free.get(n);
      }
    }
    return stranded / total;
  }

  SimResult result(Duration end, Duration interval, Collection<SimPod> pods) {
    Map<String, SimResult.Stats> pending = new LinkedHashMap<>();
    List<Double> all = new ArrayList<>();
    for (int i = 0; i < scenario.pods().size(); i++) {
      List<Double> v = pendingSeconds.getOrDefault(i, List.of());
      all.addAll(v);
    }
    Map<String, List<Double>> percentiles = new LinkedHashMap<>();
    pending.put("all", stats(all));
    percentiles.put("all", SimResult.Stats.percentiles(array(all)));
    for (int i = 0; i < scenario.pods().size(); i++) {
      List<Double> v = pendingSeconds.getOrDefault(i, List.of());
      pending.put(scenario.pods().get(i).name(), stats(v));
      percentiles.put(scenario.pods().get(i).name(), SimResult.Stats.percentiles(array(v)));
    }
    int pendingAtEnd = 0;
    int runningAtEnd = 0;
    Map<Integer, List<SimPod>> stuck = new TreeMap<>();
    for (SimPod p : pods) {
      if (p.phase == SimPod.Phase.PENDING) {
        pendingAtEnd++;
        stuck.computeIfAbsent(p.template, k -> new ArrayList<>()).add(p);
      } else if (p.phase == SimPod.Phase.RUNNING) {
        runningAtEnd++;
      }
    }
    List<SimResult.StillPending> still = new ArrayList<>();
    for (Map.Entry<Integer, List<SimPod>> e : stuck.entrySet()) {
      SimPod last = e.getValue().get(e.getValue().size() - 1);
      still.add(
          new SimResult.StillPending(
              scenario.pods().get(e.getKey()).name(),
              e.getValue().size(),
              last.lastMessage == null ? "not tried yet" : last.lastMessage));
    }
    List<SimResult.DeviceStats> devices = new ArrayList<>();
    for (String d : units.drivers()) {
      double[] u = samples.stream().mapToDouble(s -> s.utilisation().get(d)).toArray();
      SimResult.Stats st = SimResult.Stats.of(u);
      devices.add(new SimResult.DeviceStats(d, units.total(d), st.mean(), st.max()));
    }
    List<SimResult.ReasonGroup> reasons = new ArrayList<>();
    groups.forEach((k, g) ->
        reasons.add(
            new SimResult.ReasonGroup(
                k.get(0), k.get(1), g.pods.size(), g.attempts, g.nodes, g.example)));
    reasons.sort(
        Comparator.comparingInt(SimResult.ReasonGroup::pods)
            .thenComparingInt(SimResult.ReasonGroup::attempts)
            .reversed()
            .thenComparing(SimResult.ReasonGroup::template)
            .thenComparing(SimResult.ReasonGroup::reason));
    return new SimResult(
        scenario.name(),
        scenario.seed(),
        end,
        interval,
        new SimResult.PodCounts(
            created,
            scheduled,
            completed,
            deletedPending,
            deletedRunning,
            pendingAtEnd,
            runningAtEnd),
        java.util.Collections.unmodifiableMap(new LinkedHashMap<>(attempts)),
        pending,
        percentiles,
        devices,
        SimResult.Stats.of(samples.stream().mapToDouble(SimResult.Sample::fragmentation).toArray()),
        reasons,
        java.util.Collections.unmodifiableMap(failedAttempts),
        still,
        List.copyOf(samples));
  }

  private static SimResult.Stats stats(List<Double> v) {
    return SimResult.Stats.of(array(v));
  }

  private static double[] array(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
