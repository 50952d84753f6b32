package io.jdra.cli.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One step of a scheduler_perf workload, with its parameters resolved; the names and meanings are
 * upstream's opcodes and fields (test/integration/scheduler_perf/scheduler_perf.go).
 */
sealed interface Op {
  /** {@code createNodes}: {@code count} nodes from the template, or plain 4-CPU nodes. */
  record CreateNodes(int count, String nodeTemplatePath) implements Op {}

  /**
   * {@code createResourceDriver}: one ResourceSlice per node whose name matches the glob, with
   * {@code maxClaimsPerNode} devices, as the test driver publishes them.
   */
  record CreateResourceDriver(String driverName, String nodes, int maxClaimsPerNode)
      implements Op {}

  /**
   * {@code createAny}: objects from a template; with a count, {@code count} of them rendered with
   * {@code .Index} 0..count-1, else one.
   */
  record CreateAny(
      String templatePath, Integer count, String namespace, Map<String, Object> templateParams)
      implements Op {}

  /** {@code allocResourceClaims}: allocates every claim in the namespace without pods. */
  record AllocResourceClaims(String namespace) implements Op {}

  /**
   * {@code createPods}: {@code count} pods; waits until they are scheduled unless {@code
   * skipWaitToCompletion}; in {@code steadyState}, for {@code duration} deletes each scheduled
   * batch of {@code count} and creates the next.
   */
  record CreatePods(
      String namespace,
      int count,
      String podTemplatePath,
      boolean collectMetrics,
      boolean skipWaitToCompletion,
      boolean steadyState,
      Duration duration)
      implements Op {}

  /** {@code barrier}: waits until every pod in the namespaces (all, if none) is scheduled. */
  record Barrier(List<String> namespaces, String stageRequirement) implements Op {}

  /**
   * {@code churn}: in the background until the workload ends, every {@code interval} creates
   * objects from the templates ({@code create}: up to {@code number} each, 0 = unbounded) or
   * creates and deletes them in turn ({@code recreate}).
   */
  record Churn(String mode, List<String> templatePaths, Duration interval, int number)
      implements Op {}

  /** {@code sleep}. */
  record Sleep(Duration duration) implements Op {}

  /** {@code startCollectingMetrics}: measure pods scheduled in these namespaces from now. */
  record StartCollectingMetrics(List<String> namespaces) implements Op {}

  /** {@code stopCollectingMetrics}. */
  record StopCollectingMetrics() implements Op {}
}
