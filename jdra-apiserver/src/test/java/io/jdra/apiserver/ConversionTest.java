package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** resource.k8s.io served as v1 (stored), v1beta2 and v1beta1 with upstream's shapes. */
class ConversionTest {
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
  void v1beta1SliceDevicesAreWrappedInBasic() {
    String slice =
        "{\"apiVersion\":\"resource.k8s.io/v1beta1\",\"kind\":\"ResourceSlice\","
            + "\"metadata\":{\"name\":\"s1\"},\"spec\":{\"driver\":\"gpu.example.com\","
            + "\"pool\":{\"name\":\"p\",\"generation\":1,\"resourceSliceCount\":1},"
            + "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"gpu-0\",\"basic\":{\"attributes\":"
            + "{\"model\":{\"string\":\"a100\"}}}}]}}";
    HttpResponse<String> created =
        f.raw("POST", "/apis/resource.k8s.io/v1beta1/resourceslices", "application/json", slice);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.body()).contains("\"basic\":{").contains("resource.k8s.io/v1beta1");
    String v1 = f.get("/apis/resource.k8s.io/v1/resourceslices/s1", null).body();
    assertThat(v1).doesNotContain("basic").contains("\"devices\":[{\"attributes\":{\"model\"");
    String v1beta2 = f.get("/apis/resource.k8s.io/v1beta2/resourceslices/s1", null).body();
    assertThat(v1beta2).contains("resource.k8s.io/v1beta2").doesNotContain("basic");
  }

  @Test
  void v1beta1ClaimRequestsAreFlat() {
    String claim =
        "{\"apiVersion\":\"resource.k8s.io/v1beta1\",\"kind\":\"ResourceClaim\","
            + "\"metadata\":{\"name\":\"c1\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\","
            + "\"deviceClassName\":\"gpu.example.com\"}]}}}";
    HttpResponse<String> created =
        f.raw(
            "POST",
            "/apis/resource.k8s.io/v1beta1/namespaces/default/resourceclaims",
            "application/json",
            claim);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.body()).doesNotContain("exactly");
    String v1 = f.get("/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/c1", null).body();
    assertThat(v1).contains("\"exactly\":{").contains("\"deviceClassName\":\"gpu.example.com\"");
  }

  @Test
  void discoveryListsEveryVersion() {
    String apis = f.get("/apis", null).body();
    assertThat(apis)
        .contains("\"groupVersion\":\"resource.k8s.io/v1\"")
        .contains("\"groupVersion\":\"resource.k8s.io/v1beta2\"")
        .contains("\"groupVersion\":\"resource.k8s.io/v1beta1\"");
    String list = f.get("/apis/resource.k8s.io/v1", null).body();
    assertThat(list)
        .contains("\"name\":\"resourceclaims/status\"")
        .doesNotContain("\"name\":\"devicetaintrules\"");
    // Kubernetes 1.36 serves DeviceTaintRule as v1beta2 (preferred) and v1alpha3 only.
    assertThat(f.get("/apis/resource.k8s.io/v1beta2", null).body())
        .contains("\"name\":\"devicetaintrules\"");
    assertThat(f.get("/apis/resource.k8s.io/v1alpha3", null).body())
        .contains("\"name\":\"devicetaintrules\"")
        .doesNotContain("\"name\":\"resourceclaims\"");
    assertThat(f.get("/apis/resource.k8s.io/v1/devicetaintrules", null).statusCode())
        .isEqualTo(404);
    HttpResponse<String> agg =
        f.get("/apis", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
    assertThat(agg.headers().firstValue("Content-Type").orElse(""))
        .contains("as=APIGroupDiscoveryList");
    assertThat(agg.body()).contains("\"kind\":\"APIGroupDiscoveryList\"");
    assertThat(f.get("/version", null).body()).contains("\"minor\":\"36\"");
    assertThat(f.get("/readyz", null).body()).isEqualTo("ok");
  }
}
