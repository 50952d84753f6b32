package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.resourceclaim.ResourceClaims;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The end state every run must reach: every pod bound, each of its claims allocated and reserved
 * for it, no device allocated to two claims, and the claims the ResourceClaim controller made for
 * pods that are gone (the steady state's deleted batches) released: not reserved, not allocated,
 * without the delete-protection finalizer, as upstream's controller leaves them for the garbage
 * collector. A controller that stopped releasing would otherwise pass: the scheduler allocates
 * fresh claims all the same while free devices last.
 *
 * @param pods pods checked
 * @param claims claims checked
 * @param devices devices allocated
 * @param problems what is wrong (empty: correct), at most a few examples per kind
 */
public record Correctness(int pods, int claims, int devices, List<String> problems) {
  private static final int MAX_EXAMPLES = 20;

  /** How long the controller may take to release the claims of the last deleted pods. */
  static final Duration RELEASE_SETTLE = Duration.ofSeconds(10);

  boolean ok() {
    return problems.isEmpty();
  }

  Correctness withProblem(String problem) {
    List<String> p = new ArrayList<>(problems);
    p.add(0, problem);
    return new Correctness(pods, claims, devices, p);
  }

  /**
   * Checks every claim of the cluster for devices allocated twice, and every pod of {@code
   * namespaces} (those the workload created pods in) for being bound with its claims reserved.
   */
  static Correctness check(KubernetesClient c, List<String> namespaces) {
    List<String> problems = new ArrayList<>(awaitReleased(c, namespaces, RELEASE_SETTLE));
    Map<String, String> deviceOwner = new HashMap<>();
    int pods = 0;
    int claimCount = 0;
    Map<String, ResourceClaim> claims = new HashMap<>();
    for (ResourceClaim rc : c.resources(ResourceClaim.class).inAnyNamespace().list().getItems()) {
      String ns = rc.getMetadata().getNamespace();
      claims.put(ns + "/" + rc.getMetadata().getName(), rc);
      claimCount++;
      devices(rc, ns, deviceOwner, problems);
    }
    for (String ns : namespaces) {
      for (Pod p : c.pods().inNamespace(ns).list().getItems()) {
        if (p.getMetadata().getDeletionTimestamp() != null) {
          continue; // steady state's deleted batches
        }
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

  /**
   * Waits up to {@code settle} for the claims of gone pods in {@code namespaces} to be released;
   * returns what is still held after it (empty: all released). It watches the claims (an informer
   * per namespace that completes once its list holds nothing unreleased) rather than polling; the
   * pods are listed once, since none are created any more and a pod that goes after the list only
   * makes its claims count as a live pod's.
   */
  static List<String> awaitReleased(KubernetesClient c, List<String> namespaces, Duration settle) {
    long deadline = System.nanoTime() + settle.toNanos();
    List<String> held = new ArrayList<>();
    for (String ns : namespaces) {
      Set<String> pods = new HashSet<>();
      c.pods().inNamespace(ns).list().getItems().forEach(p -> pods.add(p.getMetadata().getUid()));
      CompletableFuture<List<ResourceClaim>> released =
          c.resources(ResourceClaim.class)
              .inNamespace(ns)
              .informOnCondition(claims -> unreleased(claims, pods).isEmpty());
      try {
        released.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        held.addAll(
            unreleased(c.resources(ResourceClaim.class).inNamespace(ns).list().getItems(), pods));
      } catch (ExecutionException e) {
        throw new IllegalStateException(
            "watching the claims of namespace " + ns + ": " + e.getCause().getMessage(),
            e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        held.add("interrupted while waiting for the claims of namespace " + ns);
        return held;
      } finally {
        released.cancel(true); // stops the informer when it has not completed
      }
    }
    return held;
  }

  /**
   * The claims controlled by a pod that is not among {@code podUids} and still reserved, allocated
   * or protected by the finalizer, each as a problem.
   */
  static List<String> unreleased(List<ResourceClaim> claims, Set<String> podUids) {
    List<String> held = new ArrayList<>();
    for (ResourceClaim rc : claims) {
      OwnerReference owner = ResourceClaims.owningPod(rc);
      if (owner == null || podUids.contains(owner.getUid())) {
        continue;
      }
      List<String> what = new ArrayList<>();
      ResourceClaimStatus st = rc.getStatus();
      if (st != null && st.getReservedFor() != null && !st.getReservedFor().isEmpty()) {
        what.add("reserved");
      }
      if (st != null && st.getAllocation() != null) {
        what.add("allocated");
      }
      List<String> finalizers = rc.getMetadata().getFinalizers();
      if (finalizers != null && finalizers.contains(ResourceClaims.FINALIZER)) {
        what.add("protected by finalizer " + ResourceClaims.FINALIZER);
      }
      if (!what.isEmpty()) {
        held.add(
            "claim "
                + rc.getMetadata().getNamespace()
                + "/"
                + rc.getMetadata().getName()
                + " of deleted pod "
                + owner.getName()
                + " is still "
                + String.join(", ", what));
      }
    }
    return held;
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
    for (PodResourceClaim ref : p.getSpec().getResourceClaims()) {
      String name = claimName(p, ref);
      if (name == null) {
        problems.add(
            "pod " + pod + ": status.resourceClaimStatuses does not name claim " + ref.getName());
        continue;
      }
      ResourceClaim rc = claims.get(ns + "/" + name);
      if (rc == null) {
        problems.add("pod " + pod + ": claim " + name + " does not exist");
      } else if (rc.getStatus() == null || rc.getStatus().getAllocation() == null) {
        problems.add("pod " + pod + ": claim " + name + " is not allocated");
      } else if (!reservedFor(rc, p)) {
        problems.add("pod " + pod + ": claim " + name + " is not reserved for the pod");
      }
    }
  }

  // A claim named in the pod spec, or the one the controller generated from the template.
  private static String claimName(Pod p, PodResourceClaim ref) {
    if (ref.getResourceClaimName() != null) {
      return ref.getResourceClaimName();
    }
    List<PodResourceClaimStatus> statuses =
        p.getStatus() == null ? null : p.getStatus().getResourceClaimStatuses();
    if (statuses == null) {
      return null;
    }
    for (PodResourceClaimStatus s : statuses) {
      if (ref.getName().equals(s.getName())) {
        return s.getResourceClaimName();
      }
    }
    return null;
  }

  private static boolean reservedFor(ResourceClaim rc, Pod p) {
    List<ResourceClaimConsumerReference> refs = rc.getStatus().getReservedFor();
    return refs != null && refs.stream().anyMatch(r -> p.getMetadata().getUid().equals(r.getUid()));
  }
}
