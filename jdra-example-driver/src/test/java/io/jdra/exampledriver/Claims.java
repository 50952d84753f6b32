package io.jdra.exampledriver;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Claims created through the API server, allocated as the scheduler would write them. */
public final class Claims {
  private final KubernetesClient client;
  private final List<DeviceRequestAllocationResult> results = new ArrayList<>();
  private final List<DeviceAllocationConfiguration> configs = new ArrayList<>();
  private final String name;

  private Claims(KubernetesClient client, String name) {
    this.client = client;
    this.name = name;
  }

  public static Claims claim(KubernetesClient client, String name) {
    return new Claims(client, name);
  }

  public Claims device(String driver, String pool, String device) {
    DeviceRequestAllocationResult r = new DeviceRequestAllocationResult();
    r.setRequest("gpu");
    r.setDriver(driver);
    r.setPool(pool);
    r.setDevice(device);
    results.add(r);
    return this;
  }

  /** Gives the device added last the binding conditions a driver publishes with it. */
  public Claims bindingConditions(List<String> conditions, List<String> failureConditions) {
    DeviceRequestAllocationResult r = results.get(results.size() - 1);
    r.setBindingConditions(conditions);
    r.setBindingFailureConditions(failureConditions);
    return this;
  }

  public Claims config(String source, String driver, Map<String, Object> parameters) {
    DeviceAllocationConfiguration c = new DeviceAllocationConfiguration();
    c.setSource(source);
    OpaqueDeviceConfiguration o = new OpaqueDeviceConfiguration();
    o.setDriver(driver);
    o.setParameters(parameters);
    c.setOpaque(o);
    configs.add(c);
    return this;
  }

  /** Creates the claim; allocated when devices were given. */
  public ResourceClaim create() {
    ResourceClaim claim =
        client
            .resources(ResourceClaim.class)
            .resource(
                new ResourceClaimBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .withNamespace("default")
                    .endMetadata()
                    .withNewSpec()
                    .withNewDevices()
                    .addNewRequest()
                    .withName("gpu")
                    .withNewExactly()
                    .withDeviceClassName("gpu.example.com")
                    .endExactly()
                    .endRequest()
                    .endDevices()
                    .endSpec()
                    .build())
            .create();
    if (results.isEmpty()) {
      return claim;
    }
    DeviceAllocationResult devices = new DeviceAllocationResult();
    devices.setResults(results);
    devices.setConfig(configs.isEmpty() ? null : configs);
    AllocationResult a = new AllocationResult();
    a.setDevices(devices);
    claim.setStatus(new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus());
    claim.getStatus().setAllocation(a);
    return client.resources(ResourceClaim.class).resource(claim).updateStatus();
  }
}
