package io.jdra.cli.simulate;

import io.jdra.api.features.FeatureGates;
import io.jdra.cli.up.DriverFlags;

/** The entry point: runs a validated scenario and returns what it found. */
public final class Simulation {
  private Simulation() {}

  /**
   * Runs {@code scenario} to its end on simulated time.
   *
   * @param flagParser parses the example driver's flags of the scenario's drivers
   * @param gates the DRA feature gates of the scheduler and allocator
   */
  public static SimResult run(
      Scenario scenario, DriverFlags.Parser flagParser, FeatureGates gates) {
    return new Simulator(scenario, SimCluster.build(scenario, flagParser), gates).run();
  }
}
