package io.jdra.kubelet;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.kubelet.sim.KubeletServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How to run one simulated node.
 *
 * @param client API server client (shared by every node of a process is fine)
 * @param nodeName the Node's name, also its hostname label
 * @param rootDir the kubelet root, mirroring /var/lib/kubelet: {@code plugins_registry/}, {@code
 *     plugins/}, checkpoint {@code dra_manager_state}
 * @param cdiRoot directory of CDI spec files that container CDI devices resolve against
 * @param capacity node capacity and allocatable ({@code cpu}, {@code memory}, {@code pods}, ...)
 * @param nodeIp the node's InternalIP, where the API server reaches {@code server}
 * @param server the HTTP endpoint serving container logs; one can serve many nodes
 * @param registry where the node's metrics go
 * @param wipingDelay how long a gone driver has to come back before its slices are deleted
 * @param reconcilePeriod how often claims of vanished pods are unprepared
 * @param workers how many pods are synced at the same time (default 110, upstream's pod limit per
 *     node: every pod can sync at once, as upstream's one worker goroutine per pod)
 */
public record KubeletOptions(
    KubernetesClient client,
    String nodeName,
    Path rootDir,
    Path cdiRoot,
    Map<String, Quantity> capacity,
    String nodeIp,
    KubeletServer server,
    PrometheusRegistry registry,
    Duration wipingDelay,
    Duration reconcilePeriod,
    int workers) {

  /** Upstream kubelet's default: 110 pods; cpu and memory as the CLI's default flag. */
  public static final Map<String, Quantity> DEFAULT_CAPACITY =
      Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"), "pods", new Quantity("110"));

  /** Default {@code workers}: upstream's default maximum of pods per node. */
  public static final int DEFAULT_WORKERS = 110;

  /** Upstream's reconcile period of the DRA manager. */
  public static final Duration DEFAULT_RECONCILE_PERIOD = Duration.ofSeconds(60);

  public KubeletOptions {
    Objects.requireNonNull(client, "client");
    if (nodeName == null || nodeName.isEmpty()) {
      throw new IllegalArgumentException("node name is empty");
    }
    Objects.requireNonNull(rootDir, "rootDir");
    Objects.requireNonNull(server, "server");
    cdiRoot = cdiRoot == null ? rootDir.resolve("cdi") : cdiRoot;
    capacity = Map.copyOf(new LinkedHashMap<>(capacity == null ? DEFAULT_CAPACITY : capacity));
    nodeIp = nodeIp == null ? "127.0.0.1" : nodeIp;
    registry = registry == null ? new PrometheusRegistry() : registry;
    wipingDelay = wipingDelay == null ? Duration.ofSeconds(30) : wipingDelay;
    reconcilePeriod = reconcilePeriod == null ? DEFAULT_RECONCILE_PERIOD : reconcilePeriod;
    workers = workers <= 0 ? DEFAULT_WORKERS : workers;
  }

  /** Options with defaults for everything but the essentials. */
  public static KubeletOptions of(
      KubernetesClient client, String nodeName, Path rootDir, KubeletServer server) {
    return new KubeletOptions(
        client, nodeName, rootDir, null, null, null, server, null, null, null, 0);
  }

  public KubeletOptions withCdiRoot(Path dir) {
    return new KubeletOptions(
        client,
        nodeName,
        rootDir,
        dir,
        capacity,
        nodeIp,
        server,
        registry,
        wipingDelay,
        reconcilePeriod,
        workers);
  }

  public KubeletOptions withCapacity(Map<String, Quantity> c) {
    return new KubeletOptions(
        client,
        nodeName,
        rootDir,
        cdiRoot,
        c,
        nodeIp,
        server,
        registry,
        wipingDelay,
        reconcilePeriod,
        workers);
  }

  public KubeletOptions withRegistry(PrometheusRegistry r) {
    return new KubeletOptions(
        client,
        nodeName,
        rootDir,
        cdiRoot,
        capacity,
        nodeIp,
        server,
        r,
        wipingDelay,
        reconcilePeriod,
        workers);
  }

  public Path pluginsRegistryDir() {
    return rootDir.resolve("plugins_registry");
  }

  public Path pluginsDir() {
    return rootDir.resolve("plugins");
  }
}
