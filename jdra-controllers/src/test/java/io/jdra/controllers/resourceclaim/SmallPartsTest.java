package io.jdra.controllers.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.client.Clients;
import io.jdra.testing.objects.Make;
import io.jdra.testing.objects.Requests;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

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
  void generatedClaimJsonIsTheJsonOfNewClaim() {
    KubernetesSerialization json = Clients.sharedSerialization();
    GeneratedClaimJson writer = new GeneratedClaimJson(json);
    Pod p =
        Make.pod("p".repeat(60))
            .namespace("ns")
            .uid("u-1")
            .claimFromTemplate("c".repeat(30), "t")
            .claimFromTemplate("gpu", "t")
            .obj();
    List<ResourceClaimTemplate> templates =
        List.of(
            Make.claimTemplate("t").namespace("ns").request("x").obj(),
            Make.claimTemplate("t")
                .namespace("ns")
                .claimLabels("a", "1", "b", "\"quoted\" \\ ü")
                .claimAnnotations("note", "line\nbreak")
                .requests(
                    Requests.exactly("one", "x", 2),
                    Requests.firstAvailable(
                        "pick", Requests.sub("fast", "y", 1), Requests.sub("slow", "z", 1)))
                .obj(),
            Make.claimTemplate("t").namespace("ns").claimLabels().obj(),
            // The template's own pod-claim-name annotation is replaced by the claim's.
            Make.claimTemplate("t")
                .namespace("ns")
                .claimAnnotations(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, "x", "b", "2")
                .request("x")
                .obj(),
            new ResourceClaimTemplateBuilder()
                .withNewMetadata()
                .withName("t")
                .withNamespace("ns")
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .build());
    for (ResourceClaimTemplate t : templates) {
      for (PodResourceClaim podClaim : p.getSpec().getResourceClaims()) {
        String written = writer.write(p, podClaim, t);
        assertThat(tree(json, written))
            .as(written)
            .isEqualTo(tree(json, json.asJson(GeneratedClaims.newClaim(p, podClaim, t))));
        assertThat(json.unmarshal(written, ResourceClaim.class))
            .isEqualTo(GeneratedClaims.newClaim(p, podClaim, t));
      }
    }
  }

  @Test
  void generatedClaimJsonEncodesEachTemplateObjectsSpec() {
    GeneratedClaimJson writer = new GeneratedClaimJson(Clients.sharedSerialization());
    Pod p = Make.pod("p").namespace("ns").uid("u").claimFromTemplate("gpu", "t").obj();
    PodResourceClaim podClaim = p.getSpec().getResourceClaims().get(0);
    String first =
        writer.write(p, podClaim, Make.claimTemplate("t").namespace("ns").request("x").obj());
    String changed =
        writer.write(p, podClaim, Make.claimTemplate("t").namespace("ns").request("y").obj());
    assertThat(first).contains("\"deviceClassName\":\"x\"").doesNotContain("\"y\"");
    assertThat(changed).contains("\"deviceClassName\":\"y\"").doesNotContain("\"x\"");
  }

  @Test
  void generatedClaimJsonWritesATemplatesPartsOncePerTemplateObject() {
    GeneratedClaimJson writer = new GeneratedClaimJson(Clients.sharedSerialization());
    ResourceClaimTemplate plain = Make.claimTemplate("t").namespace("ns").request("x").obj();
    GeneratedClaimJson.Template parts = writer.template(plain);
    assertThat(writer.template(plain)).isSameAs(parts);
    assertThat(parts.adminAccess()).isFalse();
    assertThat(parts.prioritizedList()).isFalse();

    ResourceClaimTemplate changed =
        Make.claimTemplate("t")
            .namespace("ns")
            .requests(
                Requests.firstAvailable("pick", Requests.sub("fast", "y", 1)),
                Requests.exactly("admin", "x", 1))
            .obj();
    changed.getSpec().getSpec().getDevices().getRequests().get(1).getExactly().setAdminAccess(true);
    GeneratedClaimJson.Template changedParts = writer.template(changed);
    assertThat(changedParts).isNotSameAs(parts);
    assertThat(changedParts.adminAccess()).isEqualTo(GeneratedClaims.needsAdminAccess(changed));
    assertThat(changedParts.adminAccess()).isTrue();
    assertThat(changedParts.prioritizedList()).isTrue();
  }

  @Test
  void podStatusApplyIsThePodWithOnlyTheClaimStatuses() {
    KubernetesSerialization json = Clients.sharedSerialization();
    Map<String, String> claims = new LinkedHashMap<>();
    claims.put("gpu", "p-gpu-abcde");
    claims.put("nic", "p-nic-fghij");
    Pod expected =
        new PodBuilder()
            .withNewMetadata()
            .withName("p")
            .withNamespace("ns")
            .endMetadata()
            .withNewStatus()
            .addNewResourceClaimStatus("gpu", "p-gpu-abcde")
            .addNewResourceClaimStatus("nic", "p-nic-fghij")
            .endStatus()
            .build();
    assertThat(tree(json, PodStatusApply.json("ns", "p", claims)))
        .isEqualTo(tree(json, json.asJson(expected)));
  }

  private static JsonNode tree(KubernetesSerialization json, String s) {
    return json.unmarshal(s, JsonNode.class);
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
