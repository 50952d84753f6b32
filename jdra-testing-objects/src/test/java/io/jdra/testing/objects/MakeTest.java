package io.jdra.testing.objects;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import org.junit.jupiter.api.Test;

class MakeTest {
  @Test
  void podWithTemplateClaimAndStatus() {
    Pod p =
        Make.pod("p")
            .namespace("ns")
            .uid("u1")
            .nodeName("node-1")
            .claimFromTemplate("gpu", "gpu-template")
            .resourceClaimStatus("gpu", "p-gpu-abcde")
            .obj();
    assertThat(p.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(p.getSpec().getNodeName()).isEqualTo("node-1");
    assertThat(p.getSpec().getResourceClaims().get(0).getResourceClaimTemplateName())
        .isEqualTo("gpu-template");
    assertThat(p.getStatus().getResourceClaimStatuses().get(0).getResourceClaimName())
        .isEqualTo("p-gpu-abcde");
    assertThat(p.getSpec().getContainers()).hasSize(1);
  }

  @Test
  void objReturnsIndependentCopies() {
    ClaimWrapper w = Make.claim("c").namespace("ns").request("gpu.example.com");
    ResourceClaim a = w.obj();
    a.getMetadata().setName("changed");
    a.getSpec().getDevices().getRequests().get(0).setName("changed");
    ResourceClaim b = w.obj();
    assertThat(b.getMetadata().getName()).isEqualTo("c");
    assertThat(b.getSpec().getDevices().getRequests().get(0).getName()).isEqualTo("req-0");
  }

  @Test
  void allocatedAndReservedClaim() {
    ResourceClaim c =
        Make.claim("c")
            .request("gpu")
            .allocatedOn("node-1", "gpu.example.com", "gpu-0")
            .reservedForPod("p", "u1")
            .finalizers("resource.kubernetes.io/delete-protection")
            .obj();
    var result = c.getStatus().getAllocation().getDevices().getResults().get(0);
    assertThat(result.getRequest()).isEqualTo("req-0");
    assertThat(result.getPool()).isEqualTo("node-1");
    assertThat(result.getDevice()).isEqualTo("gpu-0");
    assertThat(c.getStatus().getReservedFor().get(0).getResource()).isEqualTo("pods");
  }

  @Test
  void sliceDefaultsToANodeLocalPoolNamedAfterTheNode() {
    var s =
        Make.slice("s", "node-1", "drv").devices(Make.device("d").attr("model", "a").obj()).obj();
    assertThat(s.getSpec().getPool().getName()).isEqualTo("node-1");
    assertThat(s.getSpec().getNodeName()).isEqualTo("node-1");
    assertThat(s.getSpec().getDevices().get(0).getAttributes().get("model").getString())
        .isEqualTo("a");
    var all = Make.slice("s", null, "drv").obj();
    assertThat(all.getSpec().getAllNodes()).isTrue();
    assertThat(all.getSpec().getPool().getName()).isEqualTo("drv");
  }

  @Test
  void taintRuleClassTemplateAndNode() {
    var r = Make.deviceTaintRule("r").driver("drv").device("d").taint("k", "v", "NoExecute").obj();
    assertThat(r.getSpec().getTaint().getEffect()).isEqualTo("NoExecute");
    assertThat(Make.deviceClass("gpu").driver("drv").obj().getSpec().getSelectors()).hasSize(1);
    var t = Make.claimTemplate("t").namespace("ns").claimLabels("a", "b").request("gpu").obj();
    assertThat(t.getSpec().getMetadata().getLabels()).containsEntry("a", "b");
    assertThat(Make.node("n").labels("zone", "z").obj().getMetadata().getLabels())
        .containsEntry("zone", "z");
  }
}
