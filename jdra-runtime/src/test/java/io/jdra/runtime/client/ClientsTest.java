package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.httpclient.VertxClientFactory;
import io.jdra.runtime.bench.DecodeBench;
import io.jdra.runtime.clock.FakeClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientsTest {
  @TempDir Path dir;

  @Test
  void anExplicitKubeconfigIsReadAndAMissingOneIsAClearError() throws Exception {
    Path kc = dir.resolve("kubeconfig");
    Files.writeString(
        kc,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: c
          cluster: {server: "https://10.0.0.1:6443", insecure-skip-tls-verify: true}
        users:
        - name: u
          user: {token: abc}
        contexts:
        - name: x
          context: {cluster: c, user: u}
        current-context: x
        """);
    Config c =
        Clients.config(
            ClientOptions.forComponent("jdra-test", 20, 30).withKubeconfig(kc.toString()),
            Map.of(),
            dir);
    assertThat(c.getMasterUrl()).startsWith("https://10.0.0.1:6443");
    assertThat(c.getUserAgent()).isEqualTo("jdra-test");

    assertThatThrownBy(() ->
            Clients.config(
                ClientOptions.forComponent("x", 0, 0).withKubeconfig("/nope/config"),
                Map.of(),
                dir))
        .hasMessage("--kubeconfig /nope/config: no such file");
  }

  @Test
  void clientsShareTheSerializationAndClosingOneLeavesTheOthersUsable() throws Exception {
    Path kc = dir.resolve("kubeconfig");
    Files.writeString(
        kc,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: c
          cluster: {server: "https://10.0.0.1:6443", insecure-skip-tls-verify: true}
        users:
        - name: u
          user: {token: abc}
        contexts:
        - name: x
          context: {cluster: c, user: u}
        current-context: x
        """);
    var options = ClientOptions.forComponent("jdra-test", 20, 30).withKubeconfig(kc.toString());
    var a = Clients.create(options);
    var b = Clients.create(options);
    // Over HTTP, jdra's transport: its watches keep the events a server sends on the upgrade.
    assertThat(VertxClientFactory.built(a.adapt(BaseClient.class).getHttpClient())).isTrue();
    assertThat(a.getKubernetesSerialization()).isSameAs(b.getKubernetesSerialization());
    a.close();
    // What a client closes is its own: the shared serialization still reads objects.
    assertThat(
            b.getKubernetesSerialization()
                .unmarshal("{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}", Pod.class)
                .getKind())
        .isEqualTo("Pod");
    b.close();
  }

  @Test
  void theSharedSerializationReadsAndWritesAsFabric8sDefault() {
    KubernetesSerialization fabric8 = new KubernetesSerialization();
    KubernetesSerialization shared = Clients.serialization();
    for (String uid : List.of("39cb0905-d855-4db9-8c7a-beeb3aecb7af", "another-uid")) {
      String json = DecodeBench.claim(uid);
      ResourceClaim claim = shared.unmarshal(json, ResourceClaim.class);
      assertThat(claim).isEqualTo(fabric8.unmarshal(json, ResourceClaim.class));
      assertThat(
              claim.getMetadata().getManagedFields().get(0).getFieldsV1().getAdditionalProperties())
          .extracting(f -> f.get("f:metadata"))
          .asString()
          .contains("k:{\"uid\":\"" + uid + "\"}");
      assertThat(shared.asJson(claim)).isEqualTo(fabric8.asJson(claim));
    }
    Pod pod = shared.unmarshal(DecodeBench.POD, Pod.class);
    assertThat(pod).isEqualTo(fabric8.unmarshal(DecodeBench.POD, Pod.class));
    assertThat(shared.asJson(pod)).isEqualTo(fabric8.asJson(pod));
  }

  @Test
  void nothingConfiguredIsAClearError() {
    assertThatThrownBy(() -> Clients.config(ClientOptions.forComponent("x", 0, 0), Map.of(), dir))
        .hasMessageContaining("pass --kubeconfig, set KUBECONFIG");
  }

  @Test
  void clientGoDefaultsForZeroQps() {
    ClientOptions o = ClientOptions.forComponent("x", 0, 0);
    assertThat(o.effectiveQps()).isEqualTo(5f);
    assertThat(o.effectiveBurst()).isEqualTo(10);
    assertThat(ClientOptions.forComponent("x", -1, 0).effectiveQps()).isNegative();
  }

  @Test
  void rateLimiterLetsTheBurstThroughThenWaitsPerQps() {
    FakeClock clock = new FakeClock();
    List<Duration> waits = new ArrayList<>();
    ClientRateLimiter l =
        new ClientRateLimiter(
            20,
            2,
            clock,
            d -> {
              waits.add(d);
              clock.step(d);
            });
    for (int i = 0; i < 4; i++) {
      l.acquire();
    }
    assertThat(waits).containsExactly(Duration.ofMillis(50), Duration.ofMillis(50));
  }
}
