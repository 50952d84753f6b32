package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A simulation scenario as read from its YAML file (schema in docs/SIMULATE.md), already validated
 * by {@link ScenarioReader}. Immutable.
 *
 * @param name shown in reports
 * @param seed for arrivals, run durations and the scheduler's tie-breaking
 * @param duration simulated time at which the run stops; null: when nothing can change any more
 * @param sampleInterval time between samples of the time series; null: chosen from the run length
 * @param nodes node groups
 * @param deviceClasses classes besides the ones of the drivers' profiles
 * @param pods pod templates of the workload
 * @param deletions deletions at given times, besides each template's own deleteAfter
 */
public record Scenario(
    String name,
    long seed,
    Duration duration,
    Duration sampleInterval,
    List<NodeGroup> nodes,
    List<DeviceClass> deviceClasses,
    List<PodTemplate> pods,
    List<Deletion> deletions) {
  public Scenario {
    nodes = List.copyOf(nodes);
    deviceClasses = List.copyOf(deviceClasses);
    pods = List.copyOf(pods);
    deletions = List.copyOf(deletions);
  }

  /** The same scenario with another seed. */
  public Scenario withSeed(long newSeed) {
    return new Scenario(
        name, newSeed, duration, sampleInterval, nodes, deviceClasses, pods, deletions);
  }

  /**
   * At {@code at}, the oldest {@code count} pods of a template in a phase are deleted (a user
   * cancelling jobs, a rollout scaling down).
   *
   * @param count how many; 0: all that match
   * @param phase Pending, Running or Any
   */
  public record Deletion(Duration at, String template, int count, String phase) {}

  /**
   * {@code count} nodes {@code name-1} .. {@code name-count}.
   *
   * @param capacity the node's capacity and allocatable ({@code cpu}, {@code memory}, {@code pods})
   * @param drivers example drivers on every node of the group
   */
  public record NodeGroup(
      String name,
      int count,
      Map<String, Quantity> capacity,
      Map<String, String> labels,
      List<Driver> drivers) {
    public NodeGroup {
      capacity = Map.copyOf(capacity);
      labels = Map.copyOf(labels);
      drivers = List.copyOf(drivers);
    }
  }

  /**
   * One example driver per node: its profile's devices are published as {@code jdra up} publishes
   * them.
   *
   * @param profile gpu, cpu or net
   * @param flags upstream dra-example-driver flags ({@code --num-devices=8}, {@code
   *     --gpu-partitions=4}, ...)
   */
  public record Driver(String profile, List<String> flags) {
    public Driver {
      flags = List.copyOf(flags);
    }
  }

  /**
   * Pods {@code name-0}, {@code name-1}, ...
   *
   * @param count how many pods; 0 with a rate: as many as arrive before {@code until}
   * @param ratePerSecond mean arrivals per second; 0: all arrive at {@code start}
   * @param poisson exponential inter-arrival times (true) or evenly spaced ones
   * @param start when the first pod may arrive
   * @param until no arrivals after this (null: the scenario's duration)
   * @param runDuration how long a pod runs once bound; null: until the end
   * @param deleteAfter the pod is deleted this long after it was created, pending or running
   * @param pendingTimeout the pod is deleted if still pending this long after it was created
   * @param requests container resource requests ({@code cpu}, {@code memory})
   * @param claims one ResourceClaimTemplate per entry
   */
  public record PodTemplate(
      String name,
      int count,
      double ratePerSecond,
      boolean poisson,
      Duration start,
      Duration until,
      Dist runDuration,
      Duration deleteAfter,
      Duration pendingTimeout,
      int priority,
      Map<String, Quantity> requests,
      List<Claim> claims) {
    public PodTemplate {
      requests = Map.copyOf(requests);
      claims = List.copyOf(claims);
    }
  }

  /** A pod's claim: its name in the pod and the spec of its ResourceClaimTemplate. */
  public record Claim(String name, ResourceClaimSpec spec) {}

  /** A duration distribution. */
  public sealed interface Dist {
    Duration sample(RandomGenerator r);
  }

  /** Always the same. */
  public record Fixed(Duration d) implements Dist {
    @Override
    public Duration sample(RandomGenerator r) {
      return d;
    }
  }

  /** Exponential with this mean. */
  public record Exponential(Duration mean) implements Dist {
    @Override
    public Duration sample(RandomGenerator r) {
      return Duration.ofMillis(Math.round(-Math.log(1 - r.nextDouble()) * mean.toMillis()));
    }
  }

  /** Uniform between min and max. */
  public record Uniform(Duration min, Duration max) implements Dist {
    @Override
    public Duration sample(RandomGenerator r) {
      long span = max.toMillis() - min.toMillis();
      return min.plusMillis(span == 0 ? 0 : (long) (r.nextDouble() * span));
    }
  }
}
