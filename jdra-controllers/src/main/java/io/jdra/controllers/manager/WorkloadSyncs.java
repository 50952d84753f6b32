package io.jdra.controllers.manager;

/**
 * Workers of the workload controllers (kube-controller-manager's {@code
 * ReplicaSetControllerConfiguration}, {@code DeploymentControllerConfiguration} and {@code
 * JobControllerConfiguration}).
 *
 * @param replicaSet {@code --concurrent-replicaset-syncs}
 * @param deployment {@code --concurrent-deployment-syncs}
 * @param job {@code --concurrent-job-syncs}
 */
public record WorkloadSyncs(int replicaSet, int deployment, int job) {
  /** Upstream's defaults: five ReplicaSets, Deployments and Jobs synced at once. */
  public static final int DEFAULT_CONCURRENT_SYNCS = 5;

  public WorkloadSyncs {
    check("--concurrent-replicaset-syncs", replicaSet);
    check("--concurrent-deployment-syncs", deployment);
    check("--concurrent-job-syncs", job);
  }

  private static void check(String flag, int n) {
    if (n < 1) {
      throw new IllegalArgumentException(flag + " must be at least 1, got " + n);
    }
  }

  public static WorkloadSyncs defaults() {
    return new WorkloadSyncs(
        DEFAULT_CONCURRENT_SYNCS, DEFAULT_CONCURRENT_SYNCS, DEFAULT_CONCURRENT_SYNCS);
  }
}
