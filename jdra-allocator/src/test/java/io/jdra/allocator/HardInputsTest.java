package io.jdra.allocator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Inputs on which upstream's first-fit search is exponential: jdra must answer them at once, and
 * with upstream's answer where upstream would eventually find one.
 */
class HardInputsTest {
  @org.junit.jupiter.api.BeforeAll
  static void warmUp() throws Exception {
    // Class loading and CEL set-up take a second or two once per JVM; the bounds below are about
    // the search, not about that.
    Scenarios.Scenario s = Scenarios.plain(1);
    s.run(s.allocator());
  }

  static List<List<String>> picks(AllocationOutcome o) {
    assertThat(o).isInstanceOf(AllocationOutcome.Allocated.class);
    return ((AllocationOutcome.Allocated) o).results().stream().map(Fixtures::picks).toList();
  }

  @ParameterizedTest(name = "{0} devices")
  @ValueSource(ints = {20, 25, 30})
  void onlyDeviceTrapIsInstant(int n) throws Exception {
    Scenarios.Scenario s = Scenarios.onlyDeviceTrap(n);
    long start = System.nanoTime();
    List<List<String>> got = picks(s.run(s.allocator()));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    assertThat(got.get(0)).containsExactly("r=node-1/dev-1");
    assertThat(got.get(n - 2)).containsExactly("r=node-1/dev-" + (n - 1));
    assertThat(got.get(n - 1)).containsExactly("r=node-1/dev-0");
  }

  @ParameterizedTest(name = "{0} devices, firstAvailable")
  @ValueSource(ints = {20, 30})
  void prioritizedTrapIsInstant(int n) throws Exception {
    Scenarios.Scenario s = Scenarios.onlyDeviceTrapPrioritized(n);
    long start = System.nanoTime();
    List<List<String>> got = picks(s.run(s.allocator()));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    assertThat(got.get(n - 1)).containsExactly("r/one=node-1/dev-0");
  }

  @ParameterizedTest(name = "trap with {0} devices: pruned search = plain search")
  @ValueSource(ints = {3, 5, 7})
  void pruningKeepsUpstreamsAnswer(int n) throws Exception {
    Scenarios.Scenario s = Scenarios.onlyDeviceTrap(n);
    assertThat(picks(s.run(s.allocator(0)))).isEqualTo(picks(s.run(s.allocator(Long.MAX_VALUE))));
  }

  @Test
  void oneDeviceTooManyIsProvenAtOnce() throws Exception {
    Scenarios.Scenario s = Scenarios.oneTooMany(5, 5);
    long start = System.nanoTime();
    assertThat(s.run(s.allocator())).isInstanceOf(AllocationOutcome.Unschedulable.class);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    Scenarios.Scenario single = Scenarios.oneTooMany(1, 26);
    assertThat(single.run(single.allocator())).isInstanceOf(AllocationOutcome.Unschedulable.class);
  }

  @ParameterizedTest(name = "{0} requests")
  @ValueSource(ints = {1, 8})
  void matchAttributeFindsTheOnlyGroupThatFits(int requests) throws Exception {
    Scenarios.Scenario s = Scenarios.matchGroups(requests);
    List<List<String>> got = picks(s.run(s.allocator()));
    assertThat(got.get(0))
        .extracting(p -> p.substring(p.indexOf('=') + 1))
        .containsExactly(
            "node-1/dev-7",
            "node-1/dev-15",
            "node-1/dev-23",
            "node-1/dev-31",
            "node-1/dev-39",
            "node-1/dev-47",
            "node-1/dev-55",
            "node-1/dev-63");
  }

  @Test
  void deadlineStopsThePlainSearch() {
    Scenarios.Scenario s = Scenarios.onlyDeviceTrap(14);
    AtomicLong now = new AtomicLong();
    Deadline d = Deadline.after(Duration.ofMillis(5), () -> now.addAndGet(1_000));
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> s.allocator(Long.MAX_VALUE).allocate(s.node(), s.claims(), d))
        .isInstanceOfSatisfying(
            AllocationException.class,
            e -> {
              assertThat(e.isDeadlineExceeded()).isTrue();
              assertThat(e.isNodeLocal()).isFalse();
            })
        .hasMessage("filter operation aborted: context deadline exceeded");
  }

  @Test
  void plainShapePicksTheFirstDevice() throws Exception {
    Scenarios.Scenario s = Scenarios.plain(100);
    AllocationResult r = ((AllocationOutcome.Allocated) s.run(s.allocator())).results().get(0);
    assertThat(Fixtures.picks(r)).containsExactly("r=node-50/dev-0");
  }
}
