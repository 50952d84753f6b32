package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The end state every run must reach: every pod bound, each of its claims allocated and reserved
 * for it, no device allocated to two claims.
 *
 * @param pods pods checked
 * @param claims claims checked
 * @param devices devices allocated
 * @param problems what is wrong (empty: correct), at most a few examples per kind
 */
public record Correctness(int pods, int claims, int devices, List<String> problems) {
  private static final int MAX_EXAMPLES = 20;

  boolean ok() {
    return problems.isEmpty();
  }

  Correctness withTimeout(int bound, Duration timeout) {
    List<String> p = new ArrayList<>(problems);
    p.add(0, "timed out after " + timeout + " with " + bound + " measured pods bound");
    return new Correctness(pods, claims, devices, p);
  }

  static Correctness check(KubernetesClient c, List<String> namespaces, String driver) {
    List<String> problems = new ArrayList<>();
    Map<String, String> deviceOwner = new HashMap<>();
    int pods = 0;
    int claimCount = 0;
    for (String ns : namespaces) {
      Map<String, ResourceClaim> claims = new HashMap<>();
      for (ResourceClaim rc : c.resources(ResourceClaim.class).inNamespace(ns).list().getItems()) {
        claims.put(rc.getMetadata().getName(), rc);
        claimCount++;
        devices(rc, ns, deviceOwner, problems);
      }
      for (Pod p : c.pods().inNamespace(ns).list().getItems()) {
        pods++;
        checkPod(p, ns, claims, problems);
      }
    }
    List<String> shown =
        problems.size() > MAX_EXAMPLES ? problems.subList(0, MAX_EXAMPLES) : problems;
    List<String> out = new ArrayList<>(shown);
    if (problems.size() > MAX_EXAMPLES) {
      out.add("... and " + (problems.size() - MAX_EXAMPLES) + " more");
    }
    return new Correctness(pods, claimCount, deviceOwner.size(), List.copyOf(out));
  }

  private static void devices(
      ResourceClaim rc, String ns, Map<String, String> owner, List<String> problems) {
    if (rc.getStatus() == null || rc.getStatus().getAllocation() == null) {
      return;
    }
    String name = ns + "/" + rc.getMetadata().getName();
    for (DeviceRequestAllocationResult r :
        rc.getStatus().getAllocation().getDevices().getResults()) {
      String device = r.getDriver() + "/" + r.getPool() + "/" + r.getDevice();
      String prev = owner.putIfAbsent(device, name);
      if (prev != null) {
        problems.add("device " + device + " allocated twice: to " + prev + " and " + name);
      }
    }
  }

  private static void checkPod(
      Pod p, String ns, Map<String, ResourceClaim> claims, List<String> problems) {
    String pod = ns + "/" + p.getMetadata().getName();
    if (p.getSpec().getNodeName() == null) {
      problems.add("pod " + pod + " is not bound");
      return;
    }
    List<PodResourceClaimStatus> statuses =
        p.getStatus() == null ? List.of() : p.getStatus().getResourceClaimStatuses();
    if (statuses == null || statuses.size() != p.getSpec().getResourceClaims().size()) {
      problems.add("pod " + pod + ": status.resourceClaimStatuses does not name every claim");
      return;
    }
    for (PodResourceClaimStatus s : statuses) {
      ResourceClaim rc = claims.get(s.getResourceClaimName());
      if (rc == null) {
        problems.add("pod " + pod + ": claim " + s.getResourceClaimName() + " does not exist");
      } else if (rc.getStatus() == null || rc.getStatus().getAllocation() == null) {
        problems.add("pod " + pod + ": claim " + s.getResourceClaimName() + " is not allocated");
      } else if (!reservedFor(rc, p)) {
        problems.add(
            "pod " + pod + ": claim " + s.getResourceClaimName() + " is not reserved for the pod");
      }
    }
  }

  private static boolean reservedFor(ResourceClaim rc, Pod p) {
    List<ResourceClaimConsumerReference> refs = rc.getStatus().getReservedFor();
    return refs != null && refs.stream().anyMatch(r -> p.getMetadata().getUid().equals(r.getUid()));
  }
}
