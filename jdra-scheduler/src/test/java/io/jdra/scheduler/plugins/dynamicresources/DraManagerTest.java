package io.jdra.scheduler.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.allocator.AllocatedState;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.testing.objects.ClaimWrapper;
import io.jdra.testing.objects.Make;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The allocated devices the manager keeps up to date equal, after every change, what the claims it
 * knows say when counted from scratch: the newest version of each claim (assumed over informer)
 * unless its allocation is in flight, plus every in-flight allocation.
 */
class DraManagerTest {
  static final String DRIVER = "gpu.example.com";
  static final int CLAIMS = 12;
  static final int DEVICES = 6;

  final Random random = new Random(7);
  final DraManager dra = new DraManager(AllocatorFeatures.defaults(), true);

  /** The model: what the manager was told, with the old from-scratch count. */
  final Map<String, ResourceClaim> informer = new HashMap<>();

  final Map<String, ResourceClaim> assumed = new HashMap<>();
  final Map<String, ResourceClaim> inFlight = new HashMap<>();
  long rv = 1;

  ResourceClaim claim(int i, String uid, Integer device) {
    ClaimWrapper b =
        Make.claim("c" + i)
            .namespace("ns")
            .uid(uid)
            .resourceVersion(Long.toString(++rv))
            .request(DRIVER);
    if (device != null) {
      b.allocatedOn("node", DRIVER, "gpu-" + device);
    }
    return b.obj();
  }

  @Test
  void incrementalCountMatchesACountFromScratchAfterEveryChange() {
    for (int step = 0; step < 4_000; step++) {
      int i = random.nextInt(CLAIMS);
      String key = "ns/c" + i;
      // Claims are sometimes recreated under the same name with a new uid.
      String uid = "u" + i + "-" + random.nextInt(2);
      Integer device = random.nextBoolean() ? random.nextInt(DEVICES) : null;
      switch (random.nextInt(6)) {
        case 0, 1 -> {
          ResourceClaim c = claim(i, uid, device);
          dra.claimChanged(c);
          informer.put(key, c);
          ResourceClaim a = assumed.get(key);
          if (a != null && !DraManager.isNewer(a, c)) {
            assumed.remove(key);
          }
        }
        case 2 -> {
          ResourceClaim c = informer.remove(key);
          if (c != null) {
            assumed.remove(key);
            dra.claimDeleted(c);
          }
        }
        case 3 -> {
          ResourceClaim c = claim(i, uid, random.nextInt(DEVICES));
          if (dra.signalClaimPendingAllocation("pod-" + uid, c)) {
            inFlight.put(uid, c);
          }
        }
        case 4 -> {
          if (dra.removeClaimPendingAllocation("pod-" + uid, uid)) {
            inFlight.remove(uid);
          }
        }
        default -> {
          ResourceClaim c = claim(i, uid, device);
          dra.assumeClaimAfterApiCall(c);
          ResourceClaim known = informer.get(key);
          if (known == null || DraManager.isNewer(c, known)) {
            assumed.put(key, c);
          }
          inFlight.remove(uid);
        }
      }
      assertMatches(dra.allocatedState(), step);
    }
  }

  private void assertMatches(AllocatedState state, int step) {
    Map<String, ResourceClaim> newest = new HashMap<>(informer);
    newest.putAll(assumed);
    Set<String> used = new HashSet<>();
    for (ResourceClaim c : newest.values()) {
      if (!inFlight.containsKey(c.getMetadata().getUid())) {
        addDevices(used, c);
      }
    }
    inFlight.values().forEach(c -> addDevices(used, c));
    for (int d = 0; d < DEVICES; d++) {
      assertThat(state.isAllocatedExclusively(DRIVER, "node", "gpu-" + d))
          .as("step %d, gpu-%d", step, d)
          .isEqualTo(used.contains("gpu-" + d));
    }
  }

  /** An extended-resource claim of the pod with UID {@code pod}, as PreBind creates it. */
  ResourceClaim extendedClaim(String name, String pod) {
    ResourceClaim c = claim(0, "uid-" + name, null);
    c.getMetadata().setName(name);
    c.getMetadata().setAnnotations(Map.of(ExtendedResourceClaims.ANNOTATION, "true"));
    c.getMetadata()
        .setOwnerReferences(
            java.util.List.of(
                new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
                    .withApiVersion("v1")
                    .withKind("Pod")
                    .withName("p")
                    .withUid(pod)
                    .withController(true)
                    .build()));
    return c;
  }

  @Test
  void aPodsExtendedResourceClaimIsFoundByItsUidAsTheClaimChanges() {
    ResourceClaim plain = claim(1, "u1", null);
    dra.claimChanged(plain);
    assertThat(dra.extendedResourceClaim("pod-a")).isNull();

    ResourceClaim ext = extendedClaim("p-extended-resources-x", "pod-a");
    dra.claimChanged(ext);
    assertThat(dra.extendedResourceClaim("pod-a")).isSameAs(ext);
    assertThat(dra.extendedResourceClaim("pod-b")).isNull();

    ResourceClaim written = extendedClaim("p-extended-resources-x", "pod-a");
    dra.assumeClaimAfterApiCall(written);
    assertThat(dra.extendedResourceClaim("pod-a")).isSameAs(written);

    dra.claimDeleted(written);
    assertThat(dra.extendedResourceClaim("pod-a")).isNull();

    // Recreated under the same name for another pod: the index follows.
    ResourceClaim other = extendedClaim("p-extended-resources-x", "pod-b");
    dra.claimChanged(other);
    assertThat(dra.extendedResourceClaim("pod-a")).isNull();
    assertThat(dra.extendedResourceClaim("pod-b")).isSameAs(other);
  }

  private static void addDevices(Set<String> used, ResourceClaim c) {
    if (c.getStatus() != null && c.getStatus().getAllocation() != null) {
      c.getStatus().getAllocation().getDevices().getResults().forEach(r -> used.add(r.getDevice()));
    }
  }
}
