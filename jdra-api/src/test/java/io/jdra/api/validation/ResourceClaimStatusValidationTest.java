package io.jdra.api.validation;

import static io.jdra.api.validation.Messages.DNS_LABEL;
import static io.jdra.api.validation.Messages.DNS_SUBDOMAIN;
import static io.jdra.api.validation.Messages.REQUEST_REF;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.NetworkDeviceDataBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Status updates of a claim that was not allocated before (old) to the changed claim. */
class ResourceClaimStatusValidationTest {
  private static final String RES0 = "status.allocation.devices.results[0]";
  private static final String DEV0 = "status.devices[0]";

  static ResourceClaimStatus status(ResourceClaim c) {
    return c.getStatus();
  }

  static DeviceRequestAllocationResult result(ResourceClaim c) {
    return c.getStatus().getAllocation().getDevices().getResults().get(0);
  }

  static ResourceClaimConsumerReference pod(String uid) {
    return new ResourceClaimConsumerReference("", "pod-" + uid, "pods", uid);
  }

  static AllocatedDeviceStatusBuilder deviceStatus(String device) {
    return new AllocatedDeviceStatusBuilder()
        .withDriver(Fixtures.DRIVER)
        .withPool("pool")
        .withDevice(device);
  }

  static Condition condition(String type) {
    return new ConditionBuilder()
        .withType(type)
        .withStatus("True")
        .withReason("Ready")
        .withLastTransitionTime("2026-01-01T00:00:00Z")
        .build();
  }

  static DeviceAllocationConfiguration config(String source) {
    return new DeviceAllocationConfigurationBuilder()
        .withSource(source)
        .withNewOpaque()
        .withDriver(Fixtures.DRIVER)
        .withParameters(Map.of())
        .endOpaque()
        .build();
  }

  static Stream<Case<ResourceClaim>> cases() {
    return Stream.of(
        Case.of("allocation", c -> {}),
        Case.of("reserved", c -> status(c).setReservedFor(List.of(pod("u1"), pod("u2")))),
        Case.of(
            "reserved without allocation",
            c -> {
              status(c).setAllocation(null);
              status(c).setReservedFor(List.of(pod("u1")));
            },
            "status.reservedFor: Forbidden: may not be specified when `allocated` is not set"),
        Case.of(
            "reservedFor entry without fields",
            c -> status(c).setReservedFor(List.of(new ResourceClaimConsumerReference())),
            "status.reservedFor[0].resource: Required value",
            "status.reservedFor[0].name: Required value",
            "status.reservedFor[0].uid: Required value"),
        Case.of(
            "reservedFor duplicate uid",
            c -> status(c).setReservedFor(List.of(pod("u1"), pod("u1"))),
            "status.reservedFor[1]: Duplicate value: \"u1\""),
        Case.of(
            "256 reservedFor entries",
            c -> status(c).setReservedFor(Fixtures.times(256, i -> pod("u" + i)))),
        Case.of(
            "257 reservedFor entries",
            c -> status(c).setReservedFor(Fixtures.times(257, i -> pod("u" + i))),
            "status.reservedFor: Too many: 257: must have at most 256 items"),
        Case.of(
            "result problems",
            c -> {
              result(c).setRequest("other");
              result(c).setDriver("");
              result(c).setPool("");
              result(c).setDevice("Dev");
            },
            RES0 + ".request: Invalid value: \"other\": " + REQUEST_REF,
            RES0 + ".driver: Required value",
            RES0 + ".driver: Invalid value: \"\": " + DNS_SUBDOMAIN,
            RES0 + ".pool: Required value",
            RES0 + ".device: Invalid value: \"Dev\": " + DNS_LABEL),
        Case.of("result with share id", c -> result(c).setShareID(Fixtures.UID)),
        Case.of(
            "result with short share id",
            c -> result(c).setShareID("abc"),
            RES0
                + ".shareID: Invalid value: \"abc\": error validating uid: invalid UUID length: 3"),
        Case.of(
            "result with upper-case share id",
            c -> result(c).setShareID(Fixtures.UID.toUpperCase()),
            RES0
                + ".shareID: Invalid value: \""
                + Fixtures.UID.toUpperCase()
                + "\": uid must be in RFC 4122 normalized form,"
                + " `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters"),
        Case.of(
            "result with bad toleration",
            c ->
                result(c)
                    .setTolerations(
                        List.of(
                            new io.fabric8.kubernetes.api.model.resource.v1
                                    .DeviceTolerationBuilder()
                                .withOperator("Exists")
                                .withValue("v")
                                .build())),
            RES0
                + ".tolerations[0].value: Invalid value: \"v\": must be empty for operator `Exists`"),
        Case.of(
            "33 results",
            c -> {
              var r = result(c);
              status(c).getAllocation().getDevices().setResults(Fixtures.times(33, i -> r));
            },
            "status.allocation.devices.results: Too many: 33: must have at most 32 items"),
        Case.of(
            "allocation config",
            c ->
                status(c)
                    .getAllocation()
                    .getDevices()
                    .setConfig(List.of(config("FromClass"), config("FromClaim")))),
        Case.of(
            "allocation config problems",
            c ->
                status(c)
                    .getAllocation()
                    .getDevices()
                    .setConfig(List.of(config(""), config("Other"))),
            "status.allocation.devices.config[0].source: Required value",
            "status.allocation.devices.config[1].source: Unsupported value: \"Other\": supported"
                + " values: \"FromClaim\", \"FromClass\""),
        Case.of(
            "65 allocation configs",
            c ->
                status(c)
                    .getAllocation()
                    .getDevices()
                    .setConfig(Fixtures.times(65, i -> config("FromClass"))),
            "status.allocation.devices.config: Too many: 65: must have at most 64 items"),
        Case.of(
            "allocation node selector without terms",
            c -> status(c).getAllocation().setNodeSelector(new NodeSelector()),
            "status.allocation.nodeSelector.nodeSelectorTerms: Required value: must have at least one"
                + " node selector term"),
        // device status
        Case.of(
            "device status",
            c ->
                status(c)
                    .setDevices(
                        List.of(
                            deviceStatus("dev-0")
                                .withConditions(condition("Ready"))
                                .withData(Map.of("a", 1))
                                .withNetworkData(
                                    new NetworkDeviceDataBuilder()
                                        .withInterfaceName("eth0")
                                        .withIps("10.0.0.1/24", "2001:db8::1/64")
                                        .build())
                                .build()))),
        Case.of(
            "status of a device that is not allocated",
            c -> status(c).setDevices(List.of(deviceStatus("dev-9").build())),
            DEV0
                + ": Invalid value: {\"Driver\":\"gpu.example.com\",\"Pool\":\"pool\",\"Device\":"
                + "\"dev-9\",\"ShareID\":\"\"}: must be an allocated device in the claim"),
        Case.of(
            "duplicate device status",
            c ->
                status(c)
                    .setDevices(
                        List.of(deviceStatus("dev-0").build(), deviceStatus("dev-0").build())),
            "status.devices[1]: Duplicate value: {\"Driver\":\"gpu.example.com\",\"Pool\":\"pool\","
                + "\"Device\":\"dev-0\",\"ShareID\":\"\"}"),
        Case.of(
            "device status name problems",
            c -> status(c).setDevices(List.of(new AllocatedDeviceStatus())),
            DEV0 + ".driver: Required value",
            DEV0 + ".driver: Invalid value: \"\": " + DNS_SUBDOMAIN,
            DEV0 + ".pool: Required value",
            DEV0 + ".device: Invalid value: \"\": " + DNS_LABEL,
            DEV0
                + ": Invalid value: {\"Driver\":\"\",\"Pool\":\"\",\"Device\":\"\",\"ShareID\":\"\"}:"
                + " must be an allocated device in the claim"),
        Case.of(
            "9 device conditions",
            c ->
                status(c)
                    .setDevices(
                        List.of(
                            deviceStatus("dev-0")
                                .withConditions(Fixtures.times(9, i -> condition("c" + i)))
                                .build())),
            DEV0 + ".conditions: Too many: 9: must have at most 8 items"),
        Case.of(
            "bad device conditions",
            c -> {
              Condition bad =
                  new ConditionBuilder()
                      .withType("Ready")
                      .withStatus("Maybe")
                      .withReason("1x")
                      .build();
              status(c)
                  .setDevices(
                      List.of(
                          deviceStatus("dev-0").withConditions(bad, condition("Ready")).build()));
            },
            DEV0
                + ".conditions[0].status: Unsupported value: \"Maybe\": supported values: \"False\","
                + " \"True\", \"Unknown\"",
            DEV0 + ".conditions[0].lastTransitionTime: Required value",
            DEV0
                + ".conditions[0].reason: Invalid value: \"1x\": a condition reason must start with"
                + " alphabetic character, optionally followed by a string of alphanumeric characters"
                + " or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name', "
                + " or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex"
                + " used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')",
            DEV0 + ".conditions[1].type: Duplicate value: \"Ready\""),
        Case.of(
            "device data not an object",
            c -> status(c).setDevices(List.of(deviceStatus("dev-0").withData("text").build())),
            DEV0 + ".data: Invalid value: \"<value omitted>\": must be a valid JSON object"),
        Case.of(
            "network data problems",
            c ->
                status(c)
                    .setDevices(
                        List.of(
                            deviceStatus("dev-0")
                                .withNetworkData(
                                    new NetworkDeviceDataBuilder()
                                        .withInterfaceName("e".repeat(257))
                                        .withHardwareAddress("h".repeat(129))
                                        .withIps(
                                            "10.0.0.1",
                                            "2001:DB8::1/64",
                                            "10.0.0.1/24",
                                            "10.0.0.1/24")
                                        .build())
                                .build())),
            DEV0 + ".networkData.interfaceName: Too long: may not be more than 256 bytes",
            DEV0 + ".networkData.hardwareAddress: Too long: may not be more than 128 bytes",
            DEV0
                + ".networkData.ips[0]: Invalid value: \"10.0.0.1\": must be a valid address in CIDR"
                + " form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)",
            DEV0
                + ".networkData.ips[1]: Invalid value: \"2001:DB8::1/64\": must be in canonical form"
                + " (\"2001:db8::1/64\")",
            DEV0 + ".networkData.ips[3]: Duplicate value: \"10.0.0.1/24\""),
        Case.of(
            "17 ips",
            c ->
                status(c)
                    .setDevices(
                        List.of(
                            deviceStatus("dev-0")
                                .withNetworkData(
                                    new NetworkDeviceDataBuilder()
                                        .withIps(Fixtures.times(17, i -> "10.0.0." + i + "/32"))
                                        .build())
                                .build())),
            DEV0 + ".networkData.ips: Too many: 17: must have at most 16 items"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void statusUpdate(Case<ResourceClaim> tc) {
    ResourceClaim old = Fixtures.claim();
    old.getMetadata().setResourceVersion("1");
    ResourceClaim claim = Fixtures.with(Fixtures.allocatedClaim(), tc.change());
    assertThat(Fixtures.strings(Validation.validateResourceClaimStatusUpdate(claim, old)))
        .containsExactlyElementsOf(tc.expected());
  }

  static Stream<Case<ResourceClaim>> allocatedCases() {
    return Stream.of(
        Case.of("unchanged", c -> {}),
        Case.of(
            "clearing the allocation",
            c -> {
              status(c).setAllocation(null);
              status(c).setReservedFor(List.of());
            }),
        Case.of(
            "clearing the allocation while reserved",
            c -> status(c).setAllocation(null),
            "status.reservedFor: Forbidden: may not be specified when `allocated` is not set"),
        Case.of(
            "allocation is immutable",
            c -> result(c).setDevice("dev-1"),
            "status.allocation: Invalid value: {\"devices\":{\"results\":[{\"device\":\"dev-1\","
                + "\"driver\":\"gpu.example.com\",\"pool\":\"pool\",\"request\":\"req-0\"}]}}: field"
                + " is immutable"),
        Case.of(
            "no new reservations while deleting",
            c -> {
              c.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
              List<ResourceClaimConsumerReference> r = new ArrayList<>(status(c).getReservedFor());
              r.add(pod("u2"));
              status(c).setReservedFor(r);
            },
            "status.reservedFor: Forbidden: new entries may not be added while"
                + " `deallocationRequested` or `deletionTimestamp` are set"),
        Case.of(
            "removing reservations while deleting",
            c -> {
              c.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
              status(c).setReservedFor(List.of());
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("allocatedCases")
  void updateOfAllocatedClaim(Case<ResourceClaim> tc) {
    ResourceClaim old = Fixtures.allocatedClaim();
    old.getStatus().setReservedFor(List.of(pod("u1")));
    ResourceClaim claim = Fixtures.allocatedClaim();
    claim.getStatus().setReservedFor(List.of(pod("u1")));
    tc.change().accept(claim);
    if (claim.getMetadata().getDeletionTimestamp() != null) {
      old.getMetadata().setDeletionTimestamp(claim.getMetadata().getDeletionTimestamp());
    }
    assertThat(Fixtures.strings(Validation.validateResourceClaimStatusUpdate(claim, old)))
        .containsExactlyElementsOf(tc.expected());
  }
}
