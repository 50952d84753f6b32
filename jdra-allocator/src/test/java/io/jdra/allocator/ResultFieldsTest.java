package io.jdra.allocator;

import static io.jdra.allocator.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirements;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What goes into the AllocationResult: config, node selector, tolerations, shares, conditions. */
class ResultFieldsTest {
  static AllocationResult allocateOne(
      AllocatorFeatures f,
      List<DeviceClass> classes,
      List<ResourceSlice> slices,
      AllocatedState st,
      ResourceClaim... claims)
      throws Exception {
    return allocate(f, classes, slices, st, claims).get(0);
  }

  static List<AllocationResult> allocate(
      AllocatorFeatures f,
      List<DeviceClass> classes,
      List<ResourceSlice> slices,
      AllocatedState st,
      ResourceClaim... claims)
      throws Exception {
    AllocationOutcome o =
        Allocator.create(f, st, DeviceClassLister.of(classes), slices)
            .allocate(node(NODE, "zone", "a"), List.of(claims), Deadline.none());
    assertThat(o).isInstanceOf(AllocationOutcome.Allocated.class);
    return ((AllocationOutcome.Allocated) o).results();
  }

  static OpaqueDeviceConfiguration opaque(String driver) {
    OpaqueDeviceConfiguration o = new OpaqueDeviceConfiguration();
    o.setDriver(driver);
    o.setParameters(Map.of("k", "v"));
    return o;
  }

  @Test
  void nodeLocalSliceGivesNodeNameSelector() throws Exception {
    AllocationResult r =
        allocateOne(
            AllocatorFeatures.all(),
            List.of(deviceClass(CLASS)),
            List.of(slice("s", device("d0"))),
            AllocatedState.empty(),
            claim("c", request("r", 1)));
    var term = r.getNodeSelector().getNodeSelectorTerms().get(0);
    assertThat(term.getMatchFields().get(0).getKey()).isEqualTo("metadata.name");
    assertThat(term.getMatchFields().get(0).getOperator()).isEqualTo("In");
    assertThat(term.getMatchFields().get(0).getValues()).containsExactly(NODE);
  }

  @Test
  void networkAttachedSlicesMergeTheirSelectorsAndAllNodesGivesNone() throws Exception {
    ResourceSlice a =
        withSelector(
            slice("a", NODE, DRIVER, "pa", 1, 1, device("d0")), labelSelector("zone", "a"));
    ResourceSlice b =
        withSelector(
            slice("b", NODE, DRIVER, "pb", 1, 1, device("d1")), labelSelector("zone", "a"));
    AllocationResult r =
        allocateOne(
            AllocatorFeatures.all(),
            List.of(deviceClass(CLASS)),
            List.of(a, b),
            AllocatedState.empty(),
            claim("c", request("r", 2)));
    var exprs = r.getNodeSelector().getNodeSelectorTerms().get(0).getMatchExpressions();
    assertThat(exprs).hasSize(1);
    assertThat(exprs.get(0).getKey()).isEqualTo("zone");
    AllocationResult everywhere =
        allocateOne(
            AllocatorFeatures.all(),
            List.of(deviceClass(CLASS)),
            List.of(slice("s", null, DRIVER, "global", 1, 1, device("d0"))),
            AllocatedState.empty(),
            claim("c", request("r", 1)));
    assertThat(everywhere.getNodeSelector()).isNull();
  }

  @Test
  void configFromClassAndClaimScopedToChosenRequests() throws Exception {
    DeviceClass cls = deviceClass(CLASS);
    DeviceClassConfiguration cc = new DeviceClassConfiguration();
    cc.setOpaque(opaque("class.example.com"));
    cls.getSpec().setConfig(new ArrayList<>(List.of(cc)));
    ResourceClaim claim =
        claim("c", request("a", 1), firstAvailable("b", sub("big", 5), sub("small", 1)));
    DeviceClaimConfiguration all = new DeviceClaimConfiguration();
    all.setOpaque(opaque("all.example.com"));
    all.setRequests(null);
    DeviceClaimConfiguration forBig = new DeviceClaimConfiguration();
    forBig.setOpaque(opaque("big.example.com"));
    forBig.setRequests(new ArrayList<>(List.of("b/big")));
    DeviceClaimConfiguration forSmall = new DeviceClaimConfiguration();
    forSmall.setOpaque(opaque("small.example.com"));
    forSmall.setRequests(new ArrayList<>(List.of("b/small")));
    claim.getSpec().getDevices().setConfig(new ArrayList<>(List.of(all, forBig, forSmall)));
    AllocationResult r =
        allocateOne(
            AllocatorFeatures.all(),
            List.of(cls),
            List.of(slice("s", device("d0"), device("d1"))),
            AllocatedState.empty(),
            claim);
    var config = r.getDevices().getConfig();
    assertThat(config)
        .extracting(c -> c.getSource() + ":" + c.getOpaque().getDriver() + ":" + c.getRequests())
        .containsExactly(
            "FromClass:class.example.com:[a, b/small]",
            "FromClaim:all.example.com:null",
            "FromClaim:small.example.com:[b/small]");
  }

  @Test
  void tolerationsAndAdminAccessAreCopiedIntoResults() throws Exception {
    var toleration =
        new DeviceTolerationBuilder()
            .withKey("k")
            .withOperator("Exists")
            .withEffect("NoExecute")
            .build();
    AllocationResult r =
        allocateOne(
            AllocatorFeatures.all(),
            List.of(deviceClass(CLASS)),
            List.of(slice("s", taint(device("d0"), "k", "v", "NoExecute"))),
            AllocatedState.builder().device(DRIVER, NODE, "d0").build(),
            claim(
                "c",
                tolerate(
                    edit(
                        request("r", 1),
                        e -> {
                          e.setAdminAccess(true);
                          return e;
                        }),
                    toleration)));
    DeviceRequestAllocationResult d = r.getDevices().getResults().get(0);
    assertThat(d.getAdminAccess()).isTrue();
    assertThat(d.getTolerations()).containsExactly(toleration);
  }

  @Test
  void deviceTaintRulesAddTaints() throws Exception {
    var rule =
        new DeviceTaintRuleBuilder()
            .withNewMetadata()
            .withName("maintenance")
            .endMetadata()
            .withNewSpec()
            .withNewDeviceSelector()
            .withDriver(DRIVER)
            .withDevice("d0")
            .endDeviceSelector()
            .withNewTaint()
            .withKey("maintenance")
            .withEffect("NoSchedule")
            .endTaint()
            .endSpec()
            .build();
    List<ResourceSlice> tainted =
        DeviceTaintRules.apply(List.of(slice("s", device("d0"), device("d1"))), List.of(rule));
    AllocationResult r =
        allocateOne(
            AllocatorFeatures.all(),
            List.of(deviceClass(CLASS)),
            tainted,
            AllocatedState.empty(),
            claim("c", request("r", 1)));
    assertThat(picks(r)).containsExactly("r=node-1/d1");
  }

  static Device shareable(String name, String capacity, CapacityRequestPolicy policy) {
    Device d = device(name);
    d.setAllowMultipleAllocations(true);
    Map<String, DeviceCapacity> c = new LinkedHashMap<>();
    c.put("bandwidth", new DeviceCapacity(policy, new Quantity(capacity)));
    d.setCapacity(c);
    return d;
  }

  static ResourceClaim capacityClaim(String name, String amount) {
    CapacityRequirements req = new CapacityRequirements();
    req.setRequests(new LinkedHashMap<>(Map.of("bandwidth", new Quantity(amount))));
    return claim(
        name,
        edit(
            request("r", 1),
            e -> {
              e.setCapacity(req);
              return e;
            }));
  }

  @Test
  void consumableCapacitySharesADeviceUntilItIsFull() throws Exception {
    List<ResourceSlice> slices = List.of(slice("s", shareable("nic", "10Gi", null)));
    List<AllocationResult> rs =
        allocate(
            AllocatorFeatures.all(),
            List.of(deviceClass(CLASS)),
            slices,
            AllocatedState.empty(),
            capacityClaim("a", "4Gi"),
            capacityClaim("b", "6Gi"));
    DeviceRequestAllocationResult a = rs.get(0).getDevices().getResults().get(0);
    DeviceRequestAllocationResult b = rs.get(1).getDevices().getResults().get(0);
    assertThat(a.getDevice()).isEqualTo("nic");
    assertThat(b.getDevice()).isEqualTo("nic");
    assertThat(a.getShareID()).isNotNull().isNotEqualTo(b.getShareID());
    assertThat(a.getConsumedCapacity().get("bandwidth")).isEqualTo(new Quantity("4Gi"));
    AllocationOutcome full =
        Allocator.create(
                AllocatorFeatures.all(),
                AllocatedState.empty(),
                DeviceClassLister.of(List.of(deviceClass(CLASS))),
                slices)
            .allocate(
                node(NODE),
                List.of(capacityClaim("a", "4Gi"), capacityClaim("b", "7Gi")),
                Deadline.none());
    assertThat(full).isInstanceOf(AllocationOutcome.Unschedulable.class);
  }

  @Test
  void capacityAlreadyConsumedByOthersCounts() throws Exception {
    List<ResourceSlice> slices = List.of(slice("s", shareable("nic", "10Gi", null)));
    DeviceRequestAllocationResult used = new DeviceRequestAllocationResult();
    used.setDriver(DRIVER);
    used.setPool(NODE);
    used.setDevice("nic");
    used.setRequest("r");
    used.setShareID("11111111-1111-1111-1111-111111111111");
    used.setConsumedCapacity(new LinkedHashMap<>(Map.of("bandwidth", new Quantity("8Gi"))));
    AllocatedState st = AllocatedState.builder().add(used, true).build();
    AllocationOutcome o =
        Allocator.create(
                AllocatorFeatures.all(),
                st,
                DeviceClassLister.of(List.of(deviceClass(CLASS))),
                slices)
            .allocate(node(NODE), List.of(capacityClaim("a", "4Gi")), Deadline.none());
    assertThat(o).isInstanceOf(AllocationOutcome.Unschedulable.class);
  }

  @Test
  void requestPolicyRoundsUpByStep() throws Exception {
    CapacityRequestPolicy policy = new CapacityRequestPolicy();
    policy.setDefault(new Quantity("1Gi"));
    CapacityRequestPolicyRange range = new CapacityRequestPolicyRange();
    range.setMin(new Quantity("1Gi"));
    range.setStep(new Quantity("1Gi"));
    policy.setValidRange(range);
    AllocationResult r =
        allocateOne(
            AllocatorFeatures.all(),
            List.of(deviceClass(CLASS)),
            List.of(slice("s", shareable("nic", "10Gi", policy))),
            AllocatedState.empty(),
            capacityClaim("a", "1500Mi"));
    assertThat(r.getDevices().getResults().get(0).getConsumedCapacity().get("bandwidth").toString())
        .isEqualTo("2Gi");
  }

  @Test
  void capacityRequestWhileGateIsOff() {
    var f = new AllocatorFeatures(true, false, true, true, true, true, true);
    assertThatThrownBy(() ->
            Allocator.create(
                    f,
                    AllocatedState.empty(),
                    DeviceClassLister.of(List.of(deviceClass(CLASS))),
                    List.of())
                .allocate(node(NODE), List.of(capacityClaim("a", "1Gi")), Deadline.none()))
        .hasMessage(
            "claim default/a, request r: has capacity requests, but the DRAConsumableCapacity feature is disabled");
  }

  @Test
  void bindingConditionsAreCopiedAndTheirPoolsComeLast() throws Exception {
    Device cond = device("d-cond");
    cond.setBindingConditions(new ArrayList<>(List.of("attached")));
    cond.setBindingFailureConditions(new ArrayList<>(List.of("failed")));
    cond.setBindsToNode(true);
    ResourceSlice early = slice("a", null, DRIVER, "a-pool", 1, 1, cond);
    ResourceSlice late = slice("z", null, DRIVER, "z-pool", 1, 1, device("d-plain"));
    AllocationResult first =
        allocateOne(
            AllocatorFeatures.all(),
            List.of(deviceClass(CLASS)),
            List.of(early, late),
            AllocatedState.empty(),
            claim("c", request("r", 1)));
    assertThat(picks(first)).containsExactly("r=z-pool/d-plain");
    AllocationResult both =
        allocateOne(
            AllocatorFeatures.all(),
            List.of(deviceClass(CLASS)),
            List.of(early, late),
            AllocatedState.empty(),
            claim("c", request("r", 2)));
    DeviceRequestAllocationResult d = both.getDevices().getResults().get(1);
    assertThat(d.getBindingConditions()).containsExactly("attached");
    assertThat(d.getBindingFailureConditions()).containsExactly("failed");
    // bindsToNode makes the result node-local
    assertThat(
            both.getNodeSelector()
                .getNodeSelectorTerms()
                .get(0)
                .getMatchFields()
                .get(0)
                .getValues())
        .containsExactly(NODE);
    var off = new AllocatorFeatures(true, true, false, true, true, true, true);
    AllocationOutcome o =
        Allocator.create(
                off,
                AllocatedState.empty(),
                DeviceClassLister.of(List.of(deviceClass(CLASS))),
                List.of(early))
            .allocate(node(NODE), List.of(claim("c", request("r", 1))), Deadline.none());
    assertThat(o).isInstanceOf(AllocationOutcome.Unschedulable.class);
  }

  @Test
  void perDeviceNodeSelection() throws Exception {
    Device mine = device("mine");
    mine.setNodeName(NODE);
    Device theirs = device("theirs");
    theirs.setNodeName("node-2");
    ResourceSlice s = slice("s", null, DRIVER, "p", 1, 1, theirs, mine);
    s.getSpec().setAllNodes(null);
    s.getSpec().setPerDeviceNodeSelection(true);
    AllocationResult r =
        allocateOne(
            AllocatorFeatures.all(),
            List.of(deviceClass(CLASS)),
            List.of(s),
            AllocatedState.empty(),
            claim("c", request("r", 1)));
    assertThat(picks(r)).containsExactly("r=p/mine");
    assertThat(
            r.getNodeSelector().getNodeSelectorTerms().get(0).getMatchFields().get(0).getValues())
        .containsExactly(NODE);
  }

  @Test
  void explanationNamesReasons() throws Exception {
    AllocationOutcome o =
        Allocator.create(
                AllocatorFeatures.all(),
                AllocatedState.builder().device(DRIVER, NODE, "d1").build(),
                DeviceClassLister.of(List.of(deviceClass(CLASS))),
                List.of(
                    slice(
                        "s",
                        device("d0", "model", "x"),
                        device("d1", "model", "y"),
                        taint(device("d2", "model", "y"), "k", "v", "NoSchedule")),
                    slice("other", "node-2", DRIVER, "node-2", 1, 1, device("e0"))))
            .allocate(
                node(NODE),
                List.of(
                    claim(
                        "c",
                        request(
                            "r", 1, "device.attributes[\"driver.example.com\"].model == \"y\""))),
                Deadline.none());
    assertThat(o).isInstanceOf(AllocationOutcome.Unschedulable.class);
    String text = ((AllocationOutcome.Unschedulable) o).explanation().render();
    assertThat(text)
        .contains("claim default/c:")
        .contains("request r: needs 1 device, only 0 usable")
        .contains("4 devices considered")
        .contains("1 request selector false")
        .contains("1 already allocated")
        .contains("1 taint not tolerated (k=v:NoSchedule)")
        .contains("1 node does not match");
  }

  @Test
  void explanationNamesTheClaimThatDoesNotFitInAddition() throws Exception {
    AllocationOutcome o =
        Allocator.create(
                AllocatorFeatures.all(),
                AllocatedState.empty(),
                DeviceClassLister.of(List.of(deviceClass(CLASS))),
                List.of(slice("s", device("d0"), device("d1"))))
            .allocate(
                node(NODE),
                List.of(
                    claim("a", request("r", 1)),
                    claim("b", request("r", 1)),
                    claim("c", request("r", 1))),
                Deadline.none());
    String text = ((AllocationOutcome.Unschedulable) o).explanation().render();
    assertThat(text)
        .contains(
            "the first 2 claims fit together; claim default/c does not fit in addition to them")
        .contains(
            "the claims need 3 devices together, but only 2 different devices are usable for them");
  }
}
