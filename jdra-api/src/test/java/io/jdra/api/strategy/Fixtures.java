package io.jdra.api.strategy;

import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirementsBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumptionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.testing.objects.Make;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Small valid objects for the strategy tests, plus mutators that add one gated feature each. Every
 * call builds new objects, so a fixture can be built twice to check that inputs stay untouched.
 */
final class Fixtures {
  private Fixtures() {}

  /** A claim with requests "a" (exactly) and "b" (exactly), allocated to devices x and y. */
  static ResourceClaim claim() {
    return Make.claim("claim")
        .namespace("ns")
        .uid("uid-1")
        .request("a", "gpu", 1)
        .request("b", "gpu", 1)
        .allocation(
            new AllocationResultBuilder()
                .withNewDevices()
                .addToResults(result("a", "x"), result("b", "y"))
                .endDevices()
                .build())
        .obj();
  }

  static DeviceRequestAllocationResult result(String request, String device) {
    return new DeviceRequestAllocationResultBuilder()
        .withRequest(request)
        .withDriver("dra.example.com")
        .withPool("pool")
        .withDevice(device)
        .build();
  }

  static ResourceClaim claim(Consumer<ResourceClaim> mutator) {
    ResourceClaim c = claim();
    mutator.accept(c);
    return c;
  }

  /** A template whose claim spec equals {@link #claim()}'s spec. */
  static ResourceClaimTemplate template(Consumer<ResourceClaim> specMutator) {
    return Make.claimTemplate("tmpl").namespace("ns").spec(claim(specMutator).getSpec()).obj();
  }

  static ResourceSlice slice() {
    return Make.slice("slice", "node-1", "dra.example.com")
        .generation(4)
        .pool("pool", 1, 1)
        .devices(device("x"), device("y"))
        .obj();
  }

  static Device device(String name) {
    return Make.device(name).attr("model", "A100").capacity("memory", "40Gi").obj();
  }

  static ResourceSlice slice(Consumer<ResourceSlice> mutator) {
    ResourceSlice s = slice();
    mutator.accept(s);
    return s;
  }

  static DeviceClass deviceClass(String extendedResourceName) {
    return Make.deviceClass("gpu")
        .generation(2)
        .selectors("device.driver == 'dra.example.com'")
        .extendedResourceName(extendedResourceName)
        .obj();
  }

  // ---- mutators adding one feature each ----

  static void firstAvailable(ResourceClaim c) {
    var r = c.getSpec().getDevices().getRequests().get(1);
    r.setExactly(null);
    r.setFirstAvailable(
        new java.util.ArrayList<>(
            java.util.List.of(
                new DeviceSubRequestBuilder()
                    .withName("big")
                    .withDeviceClassName("gpu")
                    .withAllocationMode("ExactCount")
                    .withCount(1L)
                    .build(),
                new DeviceSubRequestBuilder()
                    .withName("small")
                    .withDeviceClassName("gpu")
                    .withAllocationMode("ExactCount")
                    .withCount(2L)
                    .build())));
  }

  static void exactTolerations(ResourceClaim c) {
    c.getSpec()
        .getDevices()
        .getRequests()
        .get(0)
        .getExactly()
        .getTolerations()
        .add(new DeviceTolerationBuilder().withKey("k").withOperator("Exists").build());
  }

  static void subRequestTolerations(ResourceClaim c) {
    firstAvailable(c);
    c.getSpec()
        .getDevices()
        .getRequests()
        .get(1)
        .getFirstAvailable()
        .get(1)
        .getTolerations()
        .add(new DeviceTolerationBuilder().withKey("k").withOperator("Exists").build());
  }

  static void adminAccessInSpec(ResourceClaim c) {
    c.getSpec().getDevices().getRequests().get(0).getExactly().setAdminAccess(true);
  }

  static void adminAccessFalseInSpec(ResourceClaim c) {
    c.getSpec().getDevices().getRequests().get(1).getExactly().setAdminAccess(false);
  }

  static void adminAccessInStatus(ResourceClaim c) {
    c.getStatus().getAllocation().getDevices().getResults().get(0).setAdminAccess(true);
  }

  static void distinctAttribute(ResourceClaim c) {
    c.getSpec()
        .getDevices()
        .getConstraints()
        .add(
            new DeviceConstraintBuilder()
                .withRequests("a", "b")
                .withDistinctAttribute("uuid")
                .build());
  }

  static void exactCapacity(ResourceClaim c) {
    c.getSpec()
        .getDevices()
        .getRequests()
        .get(0)
        .getExactly()
        .setCapacity(
            new CapacityRequirementsBuilder().addToRequests("memory", new Quantity("1Gi")).build());
  }

  static void subRequestCapacity(ResourceClaim c) {
    firstAvailable(c);
    c.getSpec()
        .getDevices()
        .getRequests()
        .get(1)
        .getFirstAvailable()
        .get(0)
        .setCapacity(
            new CapacityRequirementsBuilder().addToRequests("memory", new Quantity("1Gi")).build());
  }

  static void shareIdInResult(ResourceClaim c) {
    var r = c.getStatus().getAllocation().getDevices().getResults().get(0);
    r.setShareID("7a1f0c9e-3b7c-4a57-9a57-0b1de4f2c001");
    r.getConsumedCapacity().put("memory", new Quantity("1Gi"));
  }

  static void deviceStatus(ResourceClaim c) {
    c.getStatus()
        .getDevices()
        .add(
            new AllocatedDeviceStatusBuilder()
                .withDriver("dra.example.com")
                .withPool("pool")
                .withDevice("x")
                .build());
  }

  static void shareIdInDeviceStatus(ResourceClaim c) {
    c.getStatus()
        .getDevices()
        .add(
            new AllocatedDeviceStatusBuilder()
                .withDriver("dra.example.com")
                .withPool("pool")
                .withDevice("x")
                .withShareID("7a1f0c9e-3b7c-4a57-9a57-0b1de4f2c001")
                .build());
  }

  static void bindingConditionsInResult(ResourceClaim c) {
    var r = c.getStatus().getAllocation().getDevices().getResults().get(1);
    r.getBindingConditions().add("attached");
    r.getBindingFailureConditions().add("attach-failed");
  }

  static void sliceTaint(ResourceSlice s) {
    s.getSpec()
        .getDevices()
        .get(1)
        .getTaints()
        .add(
            new DeviceTaintBuilder()
                .withKey("unhealthy")
                .withEffect("NoExecute")
                .withTimeAdded("2026-01-01T00:00:00Z")
                .build());
  }

  static void sharedCounters(ResourceSlice s) {
    s.getSpec()
        .getSharedCounters()
        .add(
            new CounterSetBuilder()
                .withName("gpu-0")
                .addToCounters(
                    "memory", new CounterBuilder().withValue(new Quantity("40Gi")).build())
                .build());
  }

  static void consumesCounters(ResourceSlice s) {
    s.getSpec()
        .getDevices()
        .get(0)
        .getConsumesCounters()
        .add(
            new DeviceCounterConsumptionBuilder()
                .withCounterSet("gpu-0")
                .addToCounters(
                    "memory", new CounterBuilder().withValue(new Quantity("10Gi")).build())
                .build());
  }

  static void perDeviceNodeSelection(ResourceSlice s) {
    s.getSpec().setNodeName(null);
    s.getSpec().setPerDeviceNodeSelection(true);
    s.getSpec().getDevices().get(0).setNodeName("node-1");
    s.getSpec()
        .getDevices()
        .get(1)
        .setNodeSelector(
            new NodeSelectorBuilder()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey("k")
                .withOperator("Exists")
                .endMatchExpression()
                .endNodeSelectorTerm()
                .build());
  }

  static void deviceAllNodes(ResourceSlice s) {
    s.getSpec().getDevices().get(1).setAllNodes(true);
  }

  static void bindingConditionsOnDevice(ResourceSlice s) {
    Device d = s.getSpec().getDevices().get(1);
    d.getBindingConditions().add("attached");
    d.getBindingFailureConditions().add("attach-failed");
    d.setBindsToNode(true);
  }

  static void bindsToNodeOnly(ResourceSlice s) {
    s.getSpec().getDevices().get(0).setBindsToNode(false);
  }

  static void allowMultipleAllocations(ResourceSlice s) {
    s.getSpec().getDevices().get(0).setAllowMultipleAllocations(true);
  }

  static void requestPolicy(ResourceSlice s) {
    s.getSpec()
        .getDevices()
        .get(1)
        .getCapacity()
        .put(
            "memory",
            new DeviceCapacityBuilder()
                .withValue(new Quantity("40Gi"))
                .withRequestPolicy(
                    new CapacityRequestPolicyBuilder().withDefault(new Quantity("1Gi")).build())
                .build());
  }

  /** As dra-example-driver's cpu profile publishes it: one cpu per allocated device. */
  static void nodeAllocatableResourceMappings(ResourceSlice s) {
    s.getSpec()
        .getDevices()
        .get(0)
        .setAdditionalProperty(
            "nodeAllocatableResourceMappings",
            new java.util.LinkedHashMap<>(Map.of("cpu", Map.of("allocationMultiplier", "1"))));
  }

  static void listAttribute(ResourceSlice s) {
    s.getSpec()
        .getDevices()
        .get(1)
        .getAttributes()
        .put("numaNodes", new DeviceAttributeBuilder().withInts(0L, 1L).build());
  }
}
