package io.jdra.exampledriver.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cpu profile's devices as upstream's driver publishes them (internal/profiles/cpu). */
class CpuProfileTest {
  @Test
  void eachNumaNodeIsAShareableDeviceMappedOntoTheNodesCpu() {
    CpuProfile p = new CpuProfile("node-1", "cpu.example.com", 2, 4);
    List<Device> devices = p.enumerateDevices().pools().get("node-1").slices().get(0).devices();

    assertThat(devices).extracting(Device::getName).containsExactly("numa-0", "numa-1");
    @SuppressWarnings("unchecked")
    Map<String, Object> json =
        Serialization.unmarshal(Serialization.asJson(devices.get(1)), Map.class);
    assertThat(json)
        .containsEntry("allowMultipleAllocations", true)
        .containsEntry(
            "nodeAllocatableResourceMappings",
            Map.of("cpu", Map.of("capacityKey", "cpu.example.com/cpu")))
        .containsEntry("capacity", Map.of("cpu.example.com/cpu", Map.of("value", "4")))
        .containsEntry("attributes", Map.of("numaNodeID", Map.of("int", 1)));
  }
}
