/**
 * {@code jdra simulate}: a cluster and a workload described in a small YAML file, run on simulated
 * time against the real scheduler framework and allocator. {@link
 * io.jdra.cli.simulate.ScenarioReader} reads and validates the scenario, {@link
 * io.jdra.cli.simulate.Simulation} runs it (a discrete-event loop over jdra-scheduler's queue,
 * cache, DRA manager and default profile on a fake clock) and {@link
 * io.jdra.cli.simulate.SimResult} holds what it found; {@link io.jdra.cli.simulate.Reports} prints
 * it as text, JSON or an HTML page. The schema is in docs/SIMULATE.md.
 */
package io.jdra.cli.simulate;
