package io.jdra.controllers.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.testing.objects.Make;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** UID cache, generated-claim shape and metrics, without an API server. */
class SmallPartsTest {
  @Test
  void uidCacheForgetsTheLeastRecentlyUsed() {
    UidCache c = new UidCache(2);
    c.add("a");
    c.add("b");
    assertThat(c.has("a")).isTrue(); // a is now the most recently used
    c.add("c");
    assertThat(c.has("b")).isFalse();
    assertThat(c.has("a")).isTrue();
    assertThat(c.has("c")).isTrue();
    assertThat(c.size()).isEqualTo(2);
  }

  @Test
  void generatedClaimNameIsShortenedInProportion() {
    String pod = "p".repeat(60);
    Pod p = Make.pod(pod).namespace("ns").uid("u").claimFromTemplate("c".repeat(30), "t").obj();
    ResourceClaim claim =
        GeneratedClaims.newClaim(
            p,
            p.getSpec().getResourceClaims().get(0),
            Make.claimTemplate("t").namespace("ns").request("x").obj());
    assertThat(claim.getMetadata().getGenerateName())
        .isEqualTo(ResourceClaims.generateName(pod, "c".repeat(30)))
        .startsWith("p".repeat(37) + "-" + "c".repeat(18))
        .hasSizeLessThanOrEqualTo(57);
    assertThat(claim.getMetadata().getNamespace()).isEqualTo("ns");
  }

  @Test
  void metricsHaveUpstreamNamesAndLabels() throws IOException {
    PrometheusRegistry registry = new PrometheusRegistry();
    List<ResourceClaim> claims =
        List.of(
            Make.claim("a").annotations(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, "gpu").obj(),
            Make.claim("b").request("x").allocatedOn("n", "d.example.com", "dev").obj(),
            Make.claim("c")
                .annotations(GeneratedClaims.EXTENDED_RESOURCE_CLAIM_ANNOTATION, "true")
                .obj());
    ResourceClaimMetrics m = ResourceClaimMetrics.create(registry, () -> claims);
    m.recordCreate(true, false);
    m.recordCreate(false, true);
    String text = scrape(registry);
    assertThat(text)
        .contains(
            "resourceclaim_controller_creates_total{admin_access=\"false\",status=\"success\"} 1.0",
            "resourceclaim_controller_creates_total{admin_access=\"true\",status=\"failure\"} 1.0",
            "resourceclaim_controller_resource_claims{admin_access=\"false\",allocated=\"false\",source=\"resource_claim_template\"} 1.0",
            "resourceclaim_controller_resource_claims{admin_access=\"false\",allocated=\"true\",source=\"\"} 1.0",
            "resourceclaim_controller_resource_claims{admin_access=\"false\",allocated=\"false\",source=\"extended_resource\"} 1.0");
  }

  static String scrape(PrometheusRegistry registry) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, registry.scrape());
    return out.toString(StandardCharsets.UTF_8);
  }
}
