package io.jdra.runtime.client;

import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * A view of a fabric8 client that decodes with another serialization: the same HTTP client
 * (connections, interceptors, QPS limiter), configuration, executor and closeables, so requests go
 * out exactly as the client's own. fabric8 reads the serialization of every request and watch from
 * the client its operation was made from ({@code OperationSupport.getKubernetesSerialization}), and
 * {@code KubernetesClientImpl} is built for this kind of extension (its copy constructor and {@link
 * #copy} are protected, the serialization a protected field); {@link #copy} keeps the view's
 * serialization in the clients fabric8 derives ({@code inNamespace}, request configs).
 *
 * <p>Closing the view closes the client's HTTP client: owners close the client, never the view.
 */
final class TrimmingClient extends KubernetesClientImpl {
  TrimmingClient(BaseClient client, KubernetesSerialization serialization) {
    super(client);
    this.kubernetesSerialization = serialization;
  }

  @Override
  protected KubernetesClientImpl copy() {
    return new TrimmingClient(this, kubernetesSerialization);
  }
}
