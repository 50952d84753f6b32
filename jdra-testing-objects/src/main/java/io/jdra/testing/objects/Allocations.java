package io.jdra.testing.objects;

import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import java.util.List;

/** Allocation results for claims that tests treat as allocated. */
public final class Allocations {
  private Allocations() {}

  /**
   * Device {@code devices[i]} for request {@code requests[i]} (the last device repeats when there
   * are fewer devices than requests), from the pool named after the node, with the node selector
   * the allocator writes for node-local devices.
   */
  public static AllocationResult onNode(
      String node, String driver, List<String> requests, String... devices) {
    AllocationResultBuilder b = new AllocationResultBuilder().withNewDevices().endDevices();
    for (int i = 0; i < requests.size(); i++) {
      String device =
          devices.length == 0 ? "device-" + i : devices[Math.min(i, devices.length - 1)];
      b.editDevices()
          .addToResults(
              new DeviceRequestAllocationResultBuilder()
                  .withRequest(requests.get(i))
                  .withDriver(driver)
                  .withPool(node)
                  .withDevice(device)
                  .build())
          .endDevices();
    }
    b.withNodeSelector(
        new NodeSelectorBuilder()
            .addNewNodeSelectorTerm()
            .addNewMatchField()
            .withKey("metadata.name")
            .withOperator("In")
            .withValues(node)
            .endMatchField()
            .endNodeSelectorTerm()
            .build());
    return b.build();
  }
}
