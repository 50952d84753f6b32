package io.jdra.apiserver.bench;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.node.ObjectNode;

/**
 * The embedded API server's CPU per claim for the claim writes of a pod's life in {@code jdra bench
 * scheduler}'s steady-state workloads: the controller's create, the scheduler's finalizer Update
 * and allocating UpdateStatus, then, once the pod is gone, the controller's deallocating
 * UpdateStatus (reservedFor, allocation and devices cleared) and the Update that removes the
 * finalizer, and the claim's delete. The claim watches of that bench are open (scheduler,
 * controller). Counts the CPU time of the server's threads only, as {@link PodWritesCpuProbe} does:
 *
 * <pre>java -cp ... io.jdra.apiserver.bench.ClaimWritesCpuProbe [rounds] [claims per round]</pre>
 */
public final class ClaimWritesCpuProbe {
  private ClaimWritesCpuProbe() {}

  public static void main(String[] args) throws Exception {
    WritesProbe.rounds(
        args,
        "claim",
        "six",
        new String[] {
          "/apis/resource.k8s.io/v1/resourceclaims", "/apis/resource.k8s.io/v1/resourceclaims"
        },
        ClaimWritesCpuProbe::oneClaim);
  }

  private static CompletableFuture<?> oneClaim(WritesProbe p, String pod) {
    String claims = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims";
    String claim = pod + "-resource-x";
    String uid = java.util.UUID.nameUUIDFromBytes(pod.getBytes(StandardCharsets.UTF_8)).toString();
    return p.send("POST", claims, "application/json", WritesProbe.claim(claim, pod, uid))
        .thenCompose(c -> p.reserve(claims + "/" + claim, c))
        .thenCompose(
            c -> p.send("PUT", claims + "/" + claim + "/status", "application/json", deallocate(c)))
        .thenCompose(
            c -> p.send("PUT", claims + "/" + claim, "application/json", withoutFinalizer(c)))
        .thenCompose(c -> p.send("DELETE", claims + "/" + claim, "application/json", ""));
  }

  /**
   * As the ResourceClaim controller's release of a claim whose last consumer left: reservedFor
   * emptied, allocation cleared, devices emptied (fabric8 writes the empty lists).
   */
  private static String deallocate(ObjectNode claim) {
    ObjectNode status = (ObjectNode) claim.get("status");
    status.remove("allocation");
    status.putArray("reservedFor");
    status.putArray("devices");
    return claim.toString();
  }

  private static String withoutFinalizer(ObjectNode claim) {
    ((ObjectNode) claim.get("metadata")).remove("finalizers");
    return claim.toString();
  }
}
