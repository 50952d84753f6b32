package io.jdra.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.apiserver.EmbeddedApiServer;
import org.junit.jupiter.api.Test;

@WithApiServer
class ApiServerExtensionTest {
  @Test
  void injectsAClientOfARunningServer(KubernetesClient client, EmbeddedApiServer server) {
    assertThat(server.url().getHost()).isEqualTo("127.0.0.1");
    client
        .resource(
            new DeviceClassBuilder()
                .withNewMetadata()
                .withName("gpu.example.com")
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .build())
        .create();
    assertThat(client.dynamicResourceAllocation().v1().deviceClasses().list().getItems())
        .hasSize(1);
    assertThat(client.namespaces().withName("default").get()).isNotNull();
  }
}
