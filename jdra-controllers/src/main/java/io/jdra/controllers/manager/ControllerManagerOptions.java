package io.jdra.controllers.manager;

import io.jdra.api.features.FeatureGates;
import java.util.List;

/**
 * How the controller manager runs; the names are kube-controller-manager's flags.
 *
 * @param controllers {@code --controllers}: names or aliases to enable, {@code -name} to disable,
 *     {@code *} for all (the default)
 * @param concurrentResourceClaimSyncs {@code --concurrent-resource-claim-syncs}: ResourceClaim
 *     controller workers; upstream's default 50 was needed for 1,000 simulated nodes, and idle
 *     workers cost nothing but a parked thread
 * @param leaderElect {@code --leader-elect}: run controllers only while holding the Lease
 * @param leaseNamespace namespace of the Lease ({@code kube-system}, as upstream)
 * @param leaseName name of the Lease ({@code kube-controller-manager}, as upstream)
 * @param metricsBindAddress {@code --metrics-bind-address} host:port for /metrics, /healthz,
 *     /readyz, /livez; empty: no server
 * @param featureGates the feature gates in effect
 */
public record ControllerManagerOptions(
    List<String> controllers,
    int concurrentResourceClaimSyncs,
    boolean leaderElect,
    String leaseNamespace,
    String leaseName,
    String metricsBindAddress,
    FeatureGates featureGates) {
  public static final int DEFAULT_CONCURRENT_RESOURCE_CLAIM_SYNCS = 50;
  public static final String DEFAULT_LEASE_NAMESPACE = "kube-system";
  public static final String DEFAULT_LEASE_NAME = "kube-controller-manager";

  public ControllerManagerOptions {
    controllers = List.copyOf(controllers);
    if (concurrentResourceClaimSyncs < 1) {
      throw new IllegalArgumentException(
          "--concurrent-resource-claim-syncs must be at least 1, got "
              + concurrentResourceClaimSyncs);
    }
    if (leaseNamespace == null
        || leaseNamespace.isEmpty()
        || leaseName == null
        || leaseName.isEmpty()) {
      throw new IllegalArgumentException("leader election Lease namespace and name must be set");
    }
    metricsBindAddress = metricsBindAddress == null ? "" : metricsBindAddress;
  }

  /** All controllers, upstream defaults, no leader election, no metrics server. */
  public static ControllerManagerOptions defaults() {
    return new ControllerManagerOptions(
        List.of("*"),
        DEFAULT_CONCURRENT_RESOURCE_CLAIM_SYNCS,
        false,
        DEFAULT_LEASE_NAMESPACE,
        DEFAULT_LEASE_NAME,
        "",
        FeatureGates.defaults());
  }

  public ControllerManagerOptions withControllers(List<String> c) {
    return new ControllerManagerOptions(
        c,
        concurrentResourceClaimSyncs,
        leaderElect,
        leaseNamespace,
        leaseName,
        metricsBindAddress,
        featureGates);
  }

  public ControllerManagerOptions withConcurrentResourceClaimSyncs(int n) {
    return new ControllerManagerOptions(
        controllers, n, leaderElect, leaseNamespace, leaseName, metricsBindAddress, featureGates);
  }

  public ControllerManagerOptions withLeaderElect(boolean on) {
    return new ControllerManagerOptions(
        controllers,
        concurrentResourceClaimSyncs,
        on,
        leaseNamespace,
        leaseName,
        metricsBindAddress,
        featureGates);
  }

  public ControllerManagerOptions withLease(String namespace, String name) {
    return new ControllerManagerOptions(
        controllers,
        concurrentResourceClaimSyncs,
        leaderElect,
        namespace,
        name,
        metricsBindAddress,
        featureGates);
  }

  public ControllerManagerOptions withMetricsBindAddress(String a) {
    return new ControllerManagerOptions(
        controllers,
        concurrentResourceClaimSyncs,
        leaderElect,
        leaseNamespace,
        leaseName,
        a,
        featureGates);
  }

  public ControllerManagerOptions withFeatureGates(FeatureGates g) {
    return new ControllerManagerOptions(
        controllers,
        concurrentResourceClaimSyncs,
        leaderElect,
        leaseNamespace,
        leaseName,
        metricsBindAddress,
        g);
  }
}
