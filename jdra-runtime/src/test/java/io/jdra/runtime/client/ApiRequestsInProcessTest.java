package io.jdra.runtime.client;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.apiserver.WithApiServer.Transport;

/**
 * {@link ApiRequestsTest} over the in-process transport: the same writes, errors and exceptions.
 */
@WithApiServer(transport = Transport.IN_PROCESS)
class ApiRequestsInProcessTest extends ApiRequestsTest {
  ApiRequestsInProcessTest(KubernetesClient client) {
    super(client);
  }
}
