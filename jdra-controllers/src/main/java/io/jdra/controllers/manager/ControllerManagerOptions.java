package io.jdra.controllers.manager;

import io.jdra.api.features.FeatureGates;
import io.jdra.runtime.leaderelection.LeaderElection;
import java.util.List;
import java.util.Objects;

/**
 * How the controller manager runs; the names are kube-controller-manager's flags.
 *
 * @param controllers {@code --controllers}: names or aliases to enable, {@code -name} to disable,
 *     {@code *} for all (the default)
 * @param concurrentResourceClaimSyncs {@code --concurrent-resource-claim-syncs}: ResourceClaim
 *     controller workers; upstream's default 50 was needed for 1,000 simulated nodes, and idle
 *     workers cost nothing but a parked thread
 * @param concurrentDeviceTaintEvictionSyncs {@code --concurrent-device-taint-eviction-syncs}:
 *     device-taint eviction workers, and so the most pod deletions and rule status updates in
 *     flight at once
 * @param leaderElect {@code --leader-elect}: run controllers only while holding the Lease
 * @param leaseNamespace {@code --leader-elect-resource-namespace} ({@code kube-system})
 * @param leaseName {@code --leader-elect-resource-name} ({@code kube-controller-manager})
 * @param identity this instance's leader-election identity and events' reporting instance
 *     (upstream: host name, underscore, a random UUID)
 * @param metricsBindAddress {@code --metrics-bind-address} host:port for /metrics, /healthz,
 *     /readyz, /livez; empty: no server
 * @param featureGates the feature gates in effect
 * @param workloadSyncs {@code --concurrent-replicaset-syncs}, {@code
 *     --concurrent-deployment-syncs}, {@code --concurrent-job-syncs}
 * @param lifecycle the garbage collector's, namespace controller's and ttl-after-finished
 *     controller's settings
 */
public record ControllerManagerOptions(
    List<String> controllers,
    int concurrentResourceClaimSyncs,
    int concurrentDeviceTaintEvictionSyncs,
    boolean leaderElect,
    String leaseNamespace,
    String leaseName,
    String identity,
    String metricsBindAddress,
    FeatureGates featureGates,
    WorkloadSyncs workloadSyncs,
    LifecycleOptions lifecycle) {
  public static final int DEFAULT_CONCURRENT_RESOURCE_CLAIM_SYNCS = 50;

  /** Upstream's default: more workers made the API server's pod watchers fall behind. */
  public static final int DEFAULT_CONCURRENT_DEVICE_TAINT_EVICTION_SYNCS = 10;

  public static final String DEFAULT_LEASE_NAMESPACE = "kube-system";
  public static final String DEFAULT_LEASE_NAME = "kube-controller-manager";

  public ControllerManagerOptions {
    controllers = List.copyOf(controllers);
    if (concurrentResourceClaimSyncs < 1) {
      throw new IllegalArgumentException(
          "--concurrent-resource-claim-syncs must be at least 1, got "
              + concurrentResourceClaimSyncs);
    }
    if (concurrentDeviceTaintEvictionSyncs < 1) {
      throw new IllegalArgumentException(
          "--concurrent-device-taint-eviction-syncs must be at least 1, got "
              + concurrentDeviceTaintEvictionSyncs);
    }
    if (isEmpty(leaseNamespace) || isEmpty(leaseName)) {
      throw new IllegalArgumentException(
          "--leader-elect-resource-namespace and --leader-elect-resource-name must not be empty");
    }
    if (isEmpty(identity)) {
      throw new IllegalArgumentException("identity must not be empty");
    }
    metricsBindAddress = metricsBindAddress == null ? "" : metricsBindAddress;
    Objects.requireNonNull(workloadSyncs, "workloadSyncs");
    Objects.requireNonNull(lifecycle, "lifecycle");
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }

  /** All controllers, upstream defaults, no leader election, no metrics server. */
  public static ControllerManagerOptions defaults() {
    return new ControllerManagerOptions(
        List.of("*"),
        DEFAULT_CONCURRENT_RESOURCE_CLAIM_SYNCS,
        DEFAULT_CONCURRENT_DEVICE_TAINT_EVICTION_SYNCS,
        false,
        DEFAULT_LEASE_NAMESPACE,
        DEFAULT_LEASE_NAME,
        LeaderElection.defaultIdentity(),
        "",
        FeatureGates.defaults(),
        WorkloadSyncs.defaults(),
        LifecycleOptions.defaults());
  }

  public ControllerManagerOptions withControllers(List<String> c) {
    Copy b = new Copy(this);
    b.controllers = c;
    return b.build();
  }

  public ControllerManagerOptions withConcurrentResourceClaimSyncs(int n) {
    Copy b = new Copy(this);
    b.concurrentResourceClaimSyncs = n;
    return b.build();
  }

  public ControllerManagerOptions withConcurrentDeviceTaintEvictionSyncs(int n) {
    Copy b = new Copy(this);
    b.concurrentDeviceTaintEvictionSyncs = n;
    return b.build();
  }

  public ControllerManagerOptions withLeaderElect(boolean on) {
    Copy b = new Copy(this);
    b.leaderElect = on;
    return b.build();
  }

  public ControllerManagerOptions withLease(String namespace, String name) {
    Copy b = new Copy(this);
    b.leaseNamespace = namespace;
    b.leaseName = name;
    return b.build();
  }

  public ControllerManagerOptions withIdentity(String id) {
    Copy b = new Copy(this);
    b.identity = id;
    return b.build();
  }

  public ControllerManagerOptions withMetricsBindAddress(String a) {
    Copy b = new Copy(this);
    b.metricsBindAddress = a;
    return b.build();
  }

  public ControllerManagerOptions withFeatureGates(FeatureGates g) {
    Copy b = new Copy(this);
    b.featureGates = g;
    return b.build();
  }

  public ControllerManagerOptions withWorkloadSyncs(WorkloadSyncs w) {
    Copy b = new Copy(this);
    b.workloadSyncs = w;
    return b.build();
  }

  public ControllerManagerOptions withLifecycle(LifecycleOptions l) {
    Copy b = new Copy(this);
    b.lifecycle = l;
    return b.build();
  }

  /**
   * The components as mutable fields: each {@code with} changes one and builds a new record, so
   * that adding a component touches this class and the canonical constructor, not every wither.
   */
  private static final class Copy {
    List<String> controllers;
    int concurrentResourceClaimSyncs;
    int concurrentDeviceTaintEvictionSyncs;
    boolean leaderElect;
    String leaseNamespace;
    String leaseName;
    String identity;
    String metricsBindAddress;
    FeatureGates featureGates;
    WorkloadSyncs workloadSyncs;
    LifecycleOptions lifecycle;

    Copy(ControllerManagerOptions o) {
      controllers = o.controllers;
      concurrentResourceClaimSyncs = o.concurrentResourceClaimSyncs;
      concurrentDeviceTaintEvictionSyncs = o.concurrentDeviceTaintEvictionSyncs;
      leaderElect = o.leaderElect;
      leaseNamespace = o.leaseNamespace;
      leaseName = o.leaseName;
      identity = o.identity;
      metricsBindAddress = o.metricsBindAddress;
      featureGates = o.featureGates;
      workloadSyncs = o.workloadSyncs;
      lifecycle = o.lifecycle;
    }

    ControllerManagerOptions build() {
      return new ControllerManagerOptions(
          controllers,
          concurrentResourceClaimSyncs,
          concurrentDeviceTaintEvictionSyncs,
          leaderElect,
          leaseNamespace,
          leaseName,
          identity,
          metricsBindAddress,
          featureGates,
          workloadSyncs,
          lifecycle);
    }
  }
}
