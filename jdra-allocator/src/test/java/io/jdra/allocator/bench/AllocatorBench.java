package io.jdra.allocator.bench;

import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocationOutcome;
import io.jdra.allocator.Allocator;
import io.jdra.allocator.Scenarios;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The allocator's performance targets (issue 4): upstream's exponential traps with 20-30 devices
 * and the matchAttribute groups case under 10 ms; the scheduler_perf plain shape under 20 us per
 * node. Run with {@code scripts/bench jdra-allocator -f 1 AllocatorBench}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class AllocatorBench {

  /** Traps: a fresh allocation (as one scheduler Filter call) per invocation. */
  @State(Scope.Benchmark)
  public static class Trap {
    @Param({"20", "25", "30"})
    int devices;

    Scenarios.Scenario onlyDevice;
    Scenarios.Scenario tooMany;
    Allocator onlyDeviceAllocator;
    Allocator tooManyAllocator;

    @Setup(Level.Trial)
    public void setUp() {
      onlyDevice = Scenarios.onlyDeviceTrap(devices);
      onlyDeviceAllocator = onlyDevice.allocator();
      // claims of 5 devices that together need one more than exist (devices = claims * 5 - 1)
      tooMany = Scenarios.oneTooMany(devices / 5, 5);
      tooManyAllocator = tooMany.allocator();
    }
  }

  /** matchAttribute over 64 devices in 8 groups, only the last one fits. */
  @State(Scope.Benchmark)
  public static class Groups {
    @Param({"1", "8"})
    int requests;

    Scenarios.Scenario scenario;
    Allocator allocator;

    @Setup(Level.Trial)
    public void setUp() {
      scenario = Scenarios.matchGroups(requests);
      allocator = scenario.allocator();
    }
  }

  /** scheduler_perf: 10 devices per node, one claim of one device; 100 nodes' slices. */
  @State(Scope.Benchmark)
  public static class Plain {
    Scenarios.Scenario scenario;
    Allocator allocator;

    @Setup(Level.Trial)
    public void setUp() {
      scenario = Scenarios.plain(100);
      allocator = scenario.allocator();
    }
  }

  /** scheduler_perf match_empty: per node of 500 in turn, five devices sharing a pciRoot. */
  @State(Scope.Benchmark)
  public static class MatchPerNode {
    Scenarios.PerNode scenario;

    @Setup(Level.Trial)
    public void setUp() {
      scenario = Scenarios.matchPerNode(500);
    }
  }

  @Benchmark
  public AllocationOutcome matchAttributePerNode(MatchPerNode m) throws AllocationException {
    return m.scenario.next();
  }

  @Benchmark
  public AllocationOutcome onlyDeviceTrap(Trap t) throws AllocationException {
    return t.onlyDevice.run(t.onlyDeviceAllocator);
  }

  @Benchmark
  public AllocationOutcome oneDeviceTooMany(Trap t) throws AllocationException {
    return t.tooMany.run(t.tooManyAllocator);
  }

  @Benchmark
  public AllocationOutcome matchAttributeGroups(Groups g) throws AllocationException {
    return g.scenario.run(g.allocator);
  }

  @Benchmark
  public AllocationOutcome plainPerNode(Plain p) throws AllocationException {
    return p.scenario.run(p.allocator);
  }
}
