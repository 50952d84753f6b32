package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.api.features.FeatureGates;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * scheduling.k8s.io/v1alpha2 PodGroups (KEP 4671/5729): served only with GenericWorkload; their
 * {@code spec.resourceClaims} kept only with DRAWorkloadResourceClaims; a pod's {@code
 * spec.schedulingGroup} kept only with GenericWorkload, as upstream's strategies drop them.
 */
class PodGroupApiTest {
  static final String GROUPS = "/apis/scheduling.k8s.io/v1alpha2/namespaces/default/podgroups";
  static final String PODS = "/api/v1/namespaces/default/pods";

  static final String GROUP =
      """
      {"apiVersion":"scheduling.k8s.io/v1alpha2","kind":"PodGroup",
       "metadata":{"name":"group-1","namespace":"default"},
       "spec":{"schedulingPolicy":{"gang":{"minCount":2}},
        "resourceClaims":[{"name":"gpu","resourceClaimTemplateName":"one-gpu"}]}}
      """;

  static final String POD =
      """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},
       "spec":{"containers":[{"name":"c","image":"i"}],
        "schedulingGroup":{"podGroupName":"group-1"}}}
      """;

  static ServerFixture server(String gates) {
    return new ServerFixture(
        ApiServerOptions.inMemory().withFeatureGates(FeatureGates.parse(gates)));
  }

  @Test
  void notServedWithoutGenericWorkload() {
    try (ServerFixture f = server("")) {
      HttpResponse<String> r = f.raw("POST", GROUPS, "application/json", GROUP);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(404);
      assertThat(f.get("/apis", null).body()).doesNotContain("scheduling.k8s.io");
      assertThat(f.raw("POST", PODS, "application/json", POD).statusCode()).isEqualTo(201);
      assertThat(f.get(PODS + "/p", null).body()).doesNotContain("schedulingGroup");
    }
  }

  @ParameterizedTest(name = "DRAWorkloadResourceClaims={0}")
  @CsvSource({"true", "false"})
  void servedWithGenericWorkloadAndClaimsOnlyWithTheirGate(boolean claims) {
    try (ServerFixture f = server("GenericWorkload=true,DRAWorkloadResourceClaims=" + claims)) {
      HttpResponse<String> r =
          f.raw("POST", GROUPS + "?fieldValidation=Strict", "application/json", GROUP);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      String stored = f.get(GROUPS + "/group-1", null).body();
      assertThat(stored).contains("\"gang\":{\"minCount\":2}");
      if (claims) {
        assertThat(stored).contains("\"resourceClaimTemplateName\":\"one-gpu\"");
      } else {
        assertThat(stored).doesNotContain("resourceClaims");
      }
      assertThat(f.raw("POST", PODS, "application/json", POD).statusCode()).isEqualTo(201);
      assertThat(f.get(PODS + "/p", null).body())
          .contains("\"schedulingGroup\":{\"podGroupName\":\"group-1\"}");
    }
  }
}
