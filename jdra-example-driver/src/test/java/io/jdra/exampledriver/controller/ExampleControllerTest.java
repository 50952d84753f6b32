package io.jdra.exampledriver.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.exampledriver.Claims;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.TestApiServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The controller with the BindingConditions plugin against the embedded API server. */
class ExampleControllerTest {
  private static final String DRIVER = "gpu.example.com";
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static TestApiServer server;
  private static KubernetesClient client;

  @BeforeAll
  static void startServer() {
    server = TestApiServer.start();
    client = server.client();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @Test
  void setsTheBindingConditionOfItsDriversDevices() throws Exception {
    Claims.claim(client, "bc-gpu")
        .device(DRIVER, "node-1", "gpu-0")
        .bindingConditions(List.of("BindingConditions"), List.of("BindingFailureConditions"))
        .create();
    Claims.claim(client, "bc-net")
        .device("net.example.com", "node-1", "nic-0")
        .bindingConditions(List.of("BindingConditions"), List.of("BindingFailureConditions"))
        .create();
    Claims.claim(client, "bc-pending").create();

    try (ExampleController c =
        ExampleController.start(
            Ctx.background("test"), client, DRIVER, List.of(Plugins.BINDING_CONDITIONS))) {
      c.synced().get(WAIT.toSeconds(), TimeUnit.SECONDS);

      AllocatedDeviceStatus d =
          await().atMost(WAIT).until(() -> deviceStatus("bc-gpu"), s -> s != null);
      assertThat(List.of(d.getDriver(), d.getPool(), d.getDevice()))
          .containsExactly(DRIVER, "node-1", "gpu-0");
      Condition cond = d.getConditions().get(0);
      assertThat(List.of(cond.getType(), cond.getStatus(), cond.getReason(), cond.getMessage()))
          .containsExactly("BindingConditions", "True", "Ready", "Device is ready");
      assertThat(cond.getLastTransitionTime())
          .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");

      // A claim allocated later is handled too; the other driver's claim never is.
      Claims.claim(client, "bc-later")
          .device(DRIVER, "node-1", "gpu-1")
          .bindingConditions(List.of("BindingConditions"), List.of("BindingFailureConditions"))
          .create();
      await().atMost(WAIT).until(() -> deviceStatus("bc-later"), s -> s != null);
      assertThat(deviceStatus("bc-net")).isNull();
      assertThat(deviceStatus("bc-pending")).isNull();
    }
  }

  @Test
  void anUnknownPluginIsRefusedBeforeAnythingStarts() {
    assertThatThrownBy(
            () -> ExampleController.start(Ctx.background("test"), client, DRIVER, List.of("Foo")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown plugin \"Foo\"");
  }

  private static ResourceClaim claim(String name) {
    return client.resources(ResourceClaim.class).inNamespace("default").withName(name).get();
  }

  private static AllocatedDeviceStatus deviceStatus(String name) {
    ResourceClaim c = claim(name);
    if (c.getStatus() == null
        || c.getStatus().getDevices() == null
        || c.getStatus().getDevices().isEmpty()) {
      return null;
    }
    return c.getStatus().getDevices().get(0);
  }
}
