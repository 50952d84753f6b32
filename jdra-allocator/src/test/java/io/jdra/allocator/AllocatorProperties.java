package io.jdra.allocator;

import static io.jdra.allocator.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.internal.Allocation;
import io.jdra.allocator.internal.CelSelectors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Properties over random small inputs: every result satisfies selectors, constraints, taints and
 * counters; no device is handed out twice; the same input gives the same output; the pruned search
 * gives exactly the plain (upstream) search's answer.
 */
class AllocatorProperties {
  static final String MODEL = "device.attributes[\"driver.example.com\"].model == \"a\"";

  /** A generated device: model, numa, taint, in use, memory counter consumption. */
  record Dev(String model, long numa, boolean tainted, boolean allocated, int mem) {}

  /** A generated request: count, whether it selects model a, alternative as firstAvailable. */
  record Req(int count, boolean modelA, boolean firstAvailable) {}

  /**
   * A generated claim: requests and an optional constraint on numa (0 none, 1 match, 2 distinct).
   */
  record ClaimSpec(List<Req> requests, int constraint) {}

  record Input(List<Dev> devices, int memory, List<ClaimSpec> claims) {}

  @Provide
  Arbitrary<Input> inputs() {
    Arbitrary<Dev> dev =
        Combinators.combine(
                Arbitraries.of("a", "b"),
                Arbitraries.longs().between(0, 2),
                Arbitraries.integers().between(0, 9).map(i -> i == 0),
                Arbitraries.integers().between(0, 9).map(i -> i == 0),
                Arbitraries.integers().between(0, 3))
            .as(Dev::new);
    Arbitrary<Req> req =
        Combinators.combine(
                Arbitraries.integers().between(1, 3),
                Arbitraries.of(true, false),
                Arbitraries.integers().between(0, 4).map(i -> i == 0))
            .as(Req::new);
    Arbitrary<ClaimSpec> claim =
        Combinators.combine(
                req.list().ofMinSize(1).ofMaxSize(2), Arbitraries.integers().between(0, 2))
            .as(ClaimSpec::new);
    return Combinators.combine(
            dev.list().ofMinSize(1).ofMaxSize(8),
            Arbitraries.integers().between(0, 12),
            claim.list().ofMinSize(1).ofMaxSize(3))
        .as(Input::new);
  }

  static Scenarios.Scenario scenario(Input in) {
    List<Device> devs = new ArrayList<>();
    AllocatedState.Builder used = AllocatedState.builder();
    for (int i = 0; i < in.devices().size(); i++) {
      Dev d = in.devices().get(i);
      Device device = device("d" + i, "model", d.model(), "numa", d.numa());
      if (d.tainted()) {
        taint(device, "broken", "", "NoSchedule");
      }
      if (d.mem() > 0) {
        consumes(device, "mem", "memory", Integer.toString(d.mem()));
      }
      if (d.allocated()) {
        used.device(DRIVER, "p", "d" + i);
      }
      devs.add(device);
    }
    List<ResourceSlice> slices = new ArrayList<>();
    slices.add(
        counterSlice("counters", "p", counterSet("mem", "memory", Integer.toString(in.memory()))));
    slices.add(slice("devices", NODE, DRIVER, "p", 1, 2, devs.toArray(Device[]::new)));
    List<ResourceClaim> claims = new ArrayList<>();
    for (int c = 0; c < in.claims().size(); c++) {
      ClaimSpec cs = in.claims().get(c);
      List<DeviceRequest> reqs = new ArrayList<>();
      for (int r = 0; r < cs.requests().size(); r++) {
        Req q = cs.requests().get(r);
        String[] sel = q.modelA() ? new String[] {MODEL} : new String[0];
        reqs.add(
            q.firstAvailable()
                ? firstAvailable("r" + r, sub("first", q.count(), sel), sub("fallback", 1))
                : request("r" + r, q.count(), sel));
      }
      ResourceClaim claim = claim("c" + c, reqs.toArray(DeviceRequest[]::new));
      if (cs.constraint() == 1) {
        constrain(claim, match(DRIVER + "/numa"));
      } else if (cs.constraint() == 2) {
        constrain(claim, distinct(DRIVER + "/numa"));
      }
      claims.add(claim);
    }
    return new Scenarios.Scenario(
        List.of(deviceClass(CLASS)), slices, used.build(), node(NODE), claims);
  }

  static Allocator allocator(Scenarios.Scenario s, long budget) {
    AllocatorFeatures f = AllocatorFeatures.all();
    Allocation.Inputs in =
        new Allocation.Inputs(
            f,
            s.state(),
            DeviceClassLister.of(s.classes()),
            s.slices(),
            CelSelectors.forFeatures(f),
            budget);
    return (n, c, d) -> Allocation.run(in, n, c, d);
  }

  @Property(tries = 150)
  void resultsSatisfyEveryRule(@ForAll("inputs") Input in) throws Exception {
    Scenarios.Scenario s = scenario(in);
    AllocationOutcome o = s.run(allocator(s, Allocation.DEFAULT_BUDGET));
    Statistics.collect(o.allocated() ? "allocated" : "unschedulable");
    if (!(o instanceof AllocationOutcome.Allocated a)) {
      return;
    }
    Set<String> taken = new HashSet<>();
    int memory = 0;
    for (int c = 0; c < a.results().size(); c++) {
      ClaimSpec cs = in.claims().get(c);
      AllocationResult r = a.results().get(c);
      Map<String, Integer> perRequest = new HashMap<>();
      List<Long> numas = new ArrayList<>();
      for (DeviceRequestAllocationResult d : r.getDevices().getResults()) {
        int i = Integer.parseInt(d.getDevice().substring(1));
        Dev dev = in.devices().get(i);
        assertThat(taken.add(d.getDevice()))
            .as("device handed out twice: " + d.getDevice())
            .isTrue();
        assertThat(dev.allocated()).as("allocated device used").isFalse();
        assertThat(dev.tainted()).as("tainted device used").isFalse();
        memory += dev.mem();
        numas.add(dev.numa());
        String base = d.getRequest().split("/")[0];
        Req q = cs.requests().get(Integer.parseInt(base.substring(1)));
        boolean fallback = d.getRequest().endsWith("/fallback");
        if (q.modelA() && !fallback) {
          assertThat(dev.model()).isEqualTo("a");
        }
        perRequest.merge(d.getRequest(), 1, Integer::sum);
      }
      for (Map.Entry<String, Integer> e : perRequest.entrySet()) {
        Req q = cs.requests().get(Integer.parseInt(e.getKey().split("/")[0].substring(1)));
        int want = e.getKey().endsWith("/fallback") ? 1 : q.count();
        assertThat(e.getValue()).as("devices for " + e.getKey()).isEqualTo(want);
      }
      assertThat(perRequest).hasSize(cs.requests().size());
      if (cs.constraint() == 1) {
        assertThat(new HashSet<>(numas)).hasSizeLessThanOrEqualTo(1);
      } else if (cs.constraint() == 2) {
        assertThat(new HashSet<>(numas)).hasSize(numas.size());
      }
    }
    int inUse = 0;
    for (Dev d : in.devices()) {
      inUse += d.allocated() ? d.mem() : 0;
    }
    assertThat(memory + inUse)
        .as("memory counter")
        .isLessThanOrEqualTo(Math.max(in.memory(), inUse));
  }

  @Property(tries = 100)
  void sameInputSameOutput(@ForAll("inputs") Input in) throws Exception {
    Scenarios.Scenario s = scenario(in);
    assertThat(render(s.run(allocator(s, Allocation.DEFAULT_BUDGET))))
        .isEqualTo(render(scenario(in).run(allocator(scenario(in), Allocation.DEFAULT_BUDGET))));
  }

  @Property(tries = 300)
  void prunedSearchGivesUpstreamsAnswer(@ForAll("inputs") Input in) throws Exception {
    Scenarios.Scenario s = scenario(in);
    assertThat(render(s.run(allocator(s, 0))))
        .isEqualTo(render(s.run(allocator(s, Long.MAX_VALUE))));
  }

  static String render(AllocationOutcome o) {
    if (o instanceof AllocationOutcome.Allocated a) {
      return a.results().stream().map(Fixtures::picks).toList().toString();
    }
    return "unschedulable";
  }
}
