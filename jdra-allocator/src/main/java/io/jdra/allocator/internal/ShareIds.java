package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.allocator.AllocatedState;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Share IDs for allocations of shareable devices. Upstream draws random UUIDs; jdra derives them
 * from claim, request and device (name-based UUID), so the same input gives the same output, while
 * different claims, requests or devices get different IDs. An ID already taken on the device is
 * skipped.
 */
final class ShareIds {
  String next(ResourceClaim claim, RequestData rd, Dev dev, AllocatedState state) {
    String claimKey =
        claim.getMetadata().getUid() != null
            ? claim.getMetadata().getUid()
            : Allocation.kobj(claim);
    for (int attempt = 0; ; attempt++) {
      String seed = "jdra-share/" + claimKey + "/" + rd.resultName() + "/" + dev.id + "/" + attempt;
      String id = UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString();
      if (!state.hasShare(dev.id.driver(), dev.id.pool(), dev.id.device(), id)) {
        return id;
      }
    }
  }
}
