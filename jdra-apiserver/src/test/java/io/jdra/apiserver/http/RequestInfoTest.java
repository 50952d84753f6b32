package io.jdra.apiserver.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A request path's segments, as splitting at slashes and dropping empty parts gives them. */
class RequestInfoTest {
  @Test
  void segmentsAreTheNonEmptyPartsBetweenSlashes() {
    Random random = new Random(7);
    String alphabet = "/ab.-:%";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder path = new StringBuilder();
      for (int n = random.nextInt(24); n > 0; n--) {
        path.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String p = path.toString();
      List<String> split = Arrays.stream(p.split("/")).filter(s -> !s.isEmpty()).toList();
      assertThat(RequestInfo.segments(p)).as(p).isEqualTo(split);
    }
  }

  @Test
  void parsesResourcePaths() {
    assertThat(RequestInfo.parse("/api/v1/namespaces/default/pods/p/status"))
        .isEqualTo(new RequestInfo("", "v1", "default", "pods", "p", "status"));
    assertThat(RequestInfo.parse("/apis/resource.k8s.io/v1/resourceclaims"))
        .isEqualTo(new RequestInfo("resource.k8s.io", "v1", "", "resourceclaims", "", ""));
    assertThat(RequestInfo.parse("/api/v1/namespaces/ns/finalize"))
        .isEqualTo(new RequestInfo("", "v1", "", "namespaces", "ns", "finalize"));
    assertThat(RequestInfo.parse("//api//v1/namespaces/ns"))
        .isEqualTo(new RequestInfo("", "v1", "", "namespaces", "ns", ""));
    assertThat(RequestInfo.parse("/healthz")).isNull();
    assertThat(RequestInfo.parse("/api/v1/namespaces/a/pods/b/c/d")).isNull();
  }
}
