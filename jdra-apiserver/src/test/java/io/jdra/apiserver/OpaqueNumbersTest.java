package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Numbers in opaque driver parameters (a RawExtension, kept as bytes by kube-apiserver) keep their
 * value: {@code 1e400} is stored and served as that number, not as the string {@code "Infinity"};
 * fractions keep their digits.
 */
class OpaqueNumbersTest {
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  @Test
  void hugeAndFractionalNumbersKeepTheirValue() {
    String claim =
        """
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"big"},
         "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com"}}],
          "config":[{"requests":["gpu"],"opaque":{"driver":"gpu.example.com",
           "parameters":{"huge":1e400,"tiny":1e-400,"fraction":0.1,"whole":3}}}]}}}
        """;
    HttpResponse<String> r =
        f.raw(
            "POST",
            "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims",
            "application/json",
            claim);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    String stored =
        f.get("/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/big", null).body();
    assertThat(stored).doesNotContain("Infinity");
    JsonNode p = Json.MAPPER.readTree(stored).at("/spec/devices/config/0/opaque/parameters");
    assertThat(p.get("huge").isNumber()).isTrue();
    assertThat(p.get("huge").decimalValue()).isEqualByComparingTo(new BigDecimal("1e400"));
    assertThat(p.get("tiny").decimalValue()).isEqualByComparingTo(new BigDecimal("1e-400"));
    assertThat(p.get("fraction").decimalValue()).isEqualByComparingTo(new BigDecimal("0.1"));
    assertThat(p.get("whole").asInt()).isEqualTo(3);
  }
}
