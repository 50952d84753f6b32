package io.jdra.runtime.client;

import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.concurrent.Executor;

/**
 * A view of a fabric8 client that decodes with another serialization and runs its watches' and
 * informers' tasks on another executor: the same HTTP client (connections, interceptors, QPS
 * limiter), configuration and closeables, so requests go out exactly as the client's own. fabric8
 * reads the serialization of every request and watch from the client its operation was made from
 * ({@code OperationSupport.getKubernetesSerialization}), and the executor of watches and informers
 * from it too ({@code OperationContext.getExecutor}); {@code KubernetesClientImpl} is built for
 * this kind of extension (its copy constructor and {@link #copy} are protected, the serialization a
 * protected field); {@link #copy} keeps the view's serialization and executor in the clients
 * fabric8 derives ({@code inNamespace}, request configs).
 *
 * <p>Closing the view closes the client's HTTP client: owners close the client, never the view.
 */
final class ClientView extends KubernetesClientImpl {
  private final Executor executor;

  /** With {@code executor} null, the client's executor. */
  ClientView(BaseClient client, KubernetesSerialization serialization, Executor executor) {
    super(client);
    this.kubernetesSerialization = serialization;
    this.executor = executor;
  }

  @Override
  public Executor getExecutor() {
    return executor != null ? executor : super.getExecutor();
  }

  @Override
  protected KubernetesClientImpl copy() {
    return new ClientView(this, kubernetesSerialization, executor);
  }
}
