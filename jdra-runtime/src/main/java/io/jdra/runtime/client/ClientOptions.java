package io.jdra.runtime.client;

/**
 * How a component reaches the API server: {@code --kubeconfig} (null: as kubectl, {@code
 * KUBECONFIG}, then {@code ~/.kube/config}, then the in-cluster service account), {@code
 * --kube-api-qps} and {@code --kube-api-burst} (client-side token bucket, as client-go: QPS 0 means
 * client-go's defaults 5/10, negative QPS disables the limit), and the user agent.
 */
public record ClientOptions(String kubeconfig, float qps, int burst, String userAgent) {
  /** client-go's rest.Config defaults. */
  public static final float DEFAULT_QPS = 5;

  public static final int DEFAULT_BURST = 10;

  /** kube-controller-manager's {@code --kube-api-qps} / {@code --kube-api-burst} defaults. */
  public static final float CONTROLLER_MANAGER_QPS = 20;

  public static final int CONTROLLER_MANAGER_BURST = 30;

  /** kube-scheduler's and the kubelet's defaults. */
  public static final float SCHEDULER_QPS = 50;

  public static final int SCHEDULER_BURST = 100;
  public static final float KUBELET_QPS = 50;
  public static final int KUBELET_BURST = 100;

  public ClientOptions {
    if (qps > 0 && burst < 1) {
      throw new IllegalArgumentException("--kube-api-burst must be >= 1 when QPS is set");
    }
    if (kubeconfig != null && kubeconfig.isEmpty()) {
      kubeconfig = null;
    }
  }

  /** Options with a component's defaults and no explicit kubeconfig. */
  public static ClientOptions forComponent(String userAgent, float qps, int burst) {
    return new ClientOptions(null, qps, burst, userAgent);
  }

  public ClientOptions withKubeconfig(String path) {
    return new ClientOptions(path, qps, burst, userAgent);
  }

  /** The effective QPS (client-go: 0 means the default); negative: unlimited. */
  public float effectiveQps() {
    return qps == 0 ? DEFAULT_QPS : qps;
  }

  public int effectiveBurst() {
    return qps == 0 && burst == 0 ? DEFAULT_BURST : burst;
  }
}
