package io.jdra.allocator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The incrementally kept devices in use and their snapshots. */
class AllocatedDevicesTest {
  static final String DRIVER = "gpu.example.com";

  static DeviceRequestAllocationResult exclusive(String pool, String device) {
    DeviceRequestAllocationResult r = new DeviceRequestAllocationResult();
    r.setDriver(DRIVER);
    r.setPool(pool);
    r.setDevice(device);
    r.setRequest("r");
    return r;
  }

  static DeviceRequestAllocationResult share(String device, String shareId, String bandwidth) {
    DeviceRequestAllocationResult r = exclusive("pool", device);
    r.setShareID(shareId);
    if (bandwidth != null) {
      r.setConsumedCapacity(Map.of("bandwidth", new Quantity(bandwidth)));
    }
    return r;
  }

  @Test
  void snapshotsStayAsTheyWereWhenDevicesChangeLater() {
    AllocatedDevices d = new AllocatedDevices();
    d.add(exclusive("pool", "gpu-0"), true);
    AllocatedState first = d.snapshot();
    d.add(exclusive("pool", "gpu-1"), true);
    d.remove(exclusive("pool", "gpu-0"), true);
    AllocatedState second = d.snapshot();

    assertThat(first.isAllocatedExclusively(DRIVER, "pool", "gpu-0")).isTrue();
    assertThat(first.isInUse(DRIVER, "pool", "gpu-1")).isFalse();
    assertThat(second.isInUse(DRIVER, "pool", "gpu-0")).isFalse();
    assertThat(second.isAllocatedExclusively(DRIVER, "pool", "gpu-1")).isTrue();
    assertThat(d.snapshot()).isSameAs(second);
  }

  @Test
  void aDeviceCountedTwiceStaysInUseUntilBothAreRemoved() {
    AllocatedDevices d = new AllocatedDevices();
    d.add(exclusive("pool", "gpu-0"), true);
    d.add(exclusive("pool", "gpu-0"), true);
    d.remove(exclusive("pool", "gpu-0"), true);
    assertThat(d.snapshot().isAllocatedExclusively(DRIVER, "pool", "gpu-0")).isTrue();
    d.remove(exclusive("pool", "gpu-0"), true);
    assertThat(d.snapshot().isInUse(DRIVER, "pool", "gpu-0")).isFalse();
  }

  @Test
  void sharesAndTheirCapacityAddUpAndGoAway() {
    AllocatedDevices d = new AllocatedDevices();
    d.add(share("nic", "a", "3Gi"), true);
    d.add(share("nic", "b", "5Gi"), true);
    AllocatedState both = d.snapshot();
    assertThat(both.isInUse(DRIVER, "pool", "nic")).isTrue();
    assertThat(both.isAllocatedExclusively(DRIVER, "pool", "nic")).isFalse();
    assertThat(both.hasShare(DRIVER, "pool", "nic", "a")).isTrue();
    assertThat(both.consumedCapacity(DRIVER, "pool", "nic").get("bandwidth"))
        .isEqualByComparingTo(new BigDecimal(8L << 30));

    d.remove(share("nic", "a", "3Gi"), true);
    AllocatedState one = d.snapshot();
    assertThat(one.hasShare(DRIVER, "pool", "nic", "a")).isFalse();
    assertThat(one.consumedCapacity(DRIVER, "pool", "nic").get("bandwidth"))
        .isEqualByComparingTo(new BigDecimal(5L << 30));

    d.remove(share("nic", "b", "5Gi"), true);
    AllocatedState none = d.snapshot();
    assertThat(none.isInUse(DRIVER, "pool", "nic")).isFalse();
    assertThat(none.consumedCapacity(DRIVER, "pool", "nic")).isNull();
  }

  @Test
  void withoutConsumableCapacityASharedResultIsExclusive() {
    AllocatedDevices d = new AllocatedDevices();
    d.add(share("nic", "a", "3Gi"), false);
    assertThat(d.snapshot().isAllocatedExclusively(DRIVER, "pool", "nic")).isTrue();
    assertThat(d.snapshot().consumedCapacity(DRIVER, "pool", "nic")).isNull();
  }

  @Test
  void adminAccessResultsDoNotCount() {
    AllocatedDevices d = new AllocatedDevices();
    DeviceRequestAllocationResult r = exclusive("pool", "gpu-0");
    r.setAdminAccess(true);
    d.add(r, true);
    assertThat(d.snapshot().isInUse(DRIVER, "pool", "gpu-0")).isFalse();
  }

  /** Many random changes, with snapshots in between: each equals a set rebuilt from scratch. */
  @Test
  void everySnapshotMatchesTheDevicesAddedAndNotRemoved() {
    Random random = new Random(42);
    AllocatedDevices d = new AllocatedDevices();
    List<DeviceRequestAllocationResult> held = new ArrayList<>();
    List<AllocatedState> snapshots = new ArrayList<>();
    List<List<DeviceRequestAllocationResult>> expected = new ArrayList<>();
    for (int step = 0; step < 5_000; step++) {
      if (!held.isEmpty() && random.nextInt(3) == 0) {
        DeviceRequestAllocationResult r = held.remove(random.nextInt(held.size()));
        d.remove(r, true);
      } else {
        DeviceRequestAllocationResult r =
            exclusive("node-" + random.nextInt(50), "gpu-" + random.nextInt(10));
        held.add(r);
        d.add(r, true);
      }
      if (random.nextInt(4) == 0) {
        snapshots.add(d.snapshot());
        expected.add(List.copyOf(held));
      }
    }
    for (int i = 0; i < snapshots.size(); i++) {
      Set<String> inUse = new HashSet<>();
      expected.get(i).forEach(r -> inUse.add(r.getPool() + "/" + r.getDevice()));
      for (int n = 0; n < 50; n++) {
        for (int g = 0; g < 10; g++) {
          assertThat(snapshots.get(i).isAllocatedExclusively(DRIVER, "node-" + n, "gpu-" + g))
              .as("snapshot %d, node-%d/gpu-%d", i, n, g)
              .isEqualTo(inUse.contains("node-" + n + "/gpu-" + g));
        }
      }
    }
  }
}
