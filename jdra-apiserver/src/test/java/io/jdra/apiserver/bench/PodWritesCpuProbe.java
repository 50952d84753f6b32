package io.jdra.apiserver.bench;

import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.node.ObjectNode;

/**
 * The embedded API server's CPU per scheduled pod with a ResourceClaimTemplate: the six writes each
 * such pod causes in {@code jdra bench scheduler} (pod create, claim create, the controller's pod
 * status apply, the scheduler's claim finalizer Update and UpdateStatus, the binding) over HTTP,
 * with the watches of that bench open (pods: scheduler, controller, bench; claims: scheduler,
 * controller). Counts the CPU time of the server's threads only (the client here is the JDK's,
 * whose threads are left out), so it stays meaningful on a busy machine:
 *
 * <pre>java -cp ... io.jdra.apiserver.bench.PodWritesCpuProbe [rounds] [pods per round]</pre>
 */
public final class PodWritesCpuProbe {
  private PodWritesCpuProbe() {}

  public static void main(String[] args) throws Exception {
    WritesProbe.rounds(
        args,
        "pod",
        "six",
        new String[] {
          "/api/v1/pods",
          "/api/v1/pods",
          "/api/v1/pods",
          "/apis/resource.k8s.io/v1/resourceclaims",
          "/apis/resource.k8s.io/v1/resourceclaims"
        },
        PodWritesCpuProbe::onePod);
  }

  private static CompletableFuture<?> onePod(WritesProbe p, String pod) {
    String ns = "/api/v1/namespaces/default/pods";
    String claims = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims";
    String claim = pod + "-resource-x";
    return p.send("POST", ns, "application/json", pod(pod))
        .thenCompose(created ->
            p.send("POST", claims, "application/json", WritesProbe.claim(claim, pod, uid(created))))
        .thenCompose(c ->
            p.send(
                    "PATCH",
                    ns + "/" + pod + "/status?fieldManager=ResourceClaimController&force=true",
                    "application/apply-patch+yaml",
                    podStatus(pod, claim))
                .thenApply(x -> c))
        .thenCompose(c -> p.reserve(claims + "/" + claim, c))
        .thenCompose(
            c -> p.send("POST", ns + "/" + pod + "/binding", "application/json", bind(pod)));
  }

  private static String uid(ObjectNode o) {
    return o.at("/metadata/uid").asString();
  }

  private static String pod(String name) {
    return """
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","labels":{"app":"probe"}},
     "spec":{"containers":[{"name":"pause","image":"registry.k8s.io/pause:3.10",
       "resources":{"claims":[{"name":"resource"}]}}],
      "resourceClaims":[{"name":"resource","resourceClaimTemplateName":"test-claim-template"}]}}
    """
        .formatted(name);
  }

  private static String podStatus(String pod, String claim) {
    return """
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"default"},
     "status":{"resourceClaimStatuses":[{"name":"resource","resourceClaimName":"%s"}]}}
    """
        .formatted(pod, claim);
  }

  private static String bind(String pod) {
    return """
    {"apiVersion":"v1","kind":"Binding","metadata":{"name":"%s"},
     "target":{"apiVersion":"v1","kind":"Node","name":"node-1"}}
    """
        .formatted(pod);
  }
}
