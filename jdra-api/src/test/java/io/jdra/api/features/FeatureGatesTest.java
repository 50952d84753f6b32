package io.jdra.api.features;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdra.api.features.Feature.Stage;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FeatureGatesTest {

  record GateRow(String name, Stage stage, boolean defaultOn, boolean locked) {}

  /** The Kubernetes 1.36 table, written out independently of the enum. */
  static Stream<Arguments> kubernetes136() {
    return Stream.of(
            new GateRow("DynamicResourceAllocation", Stage.GA, true, true),
            new GateRow("DRAAdminAccess", Stage.GA, true, true),
            new GateRow("DRAConsumableCapacity", Stage.BETA, true, false),
            new GateRow("DRADeviceBindingConditions", Stage.BETA, true, false),
            new GateRow("DRADeviceTaintRules", Stage.BETA, false, false),
            new GateRow("DRADeviceTaints", Stage.BETA, true, false),
            new GateRow("DRAExtendedResource", Stage.BETA, true, false),
            new GateRow("DRAListTypeAttributes", Stage.ALPHA, false, false),
            new GateRow("DRANodeAllocatableResources", Stage.ALPHA, false, false),
            new GateRow("DRAPartitionableDevices", Stage.BETA, true, false),
            new GateRow("DRAPrioritizedList", Stage.GA, true, false),
            new GateRow("DRAResourceClaimDeviceStatus", Stage.BETA, true, false),
            new GateRow("DRAResourceClaimGranularStatusAuthorization", Stage.BETA, true, false),
            new GateRow("DRASchedulerFilterTimeout", Stage.BETA, true, false),
            new GateRow("DRAWorkloadResourceClaims", Stage.ALPHA, false, false),
            new GateRow("GangScheduling", Stage.ALPHA, false, false),
            new GateRow("GenericWorkload", Stage.ALPHA, false, false))
        .map(r -> Arguments.of(Named.of(r.name(), r)));
  }

  @ParameterizedTest
  @MethodSource("kubernetes136")
  void gateHasItsKubernetes136StageDefaultAndLock(GateRow row) {
    Feature f = Feature.byName(row.name()).orElseThrow();
    assertThat(f.gateName()).isEqualTo(row.name());
    assertThat(f.stage()).isEqualTo(row.stage());
    assertThat(f.defaultEnabled()).isEqualTo(row.defaultOn());
    assertThat(f.lockedToDefault()).isEqualTo(row.locked());
    assertThat(FeatureGates.defaults().enabled(f)).isEqualTo(row.defaultOn());
  }

  @Test
  void tableCoversEveryFeature() {
    assertThat(kubernetes136().count()).isEqualTo(Feature.values().length);
  }

  @Test
  void removedAndFutureGatesAreUnknown() {
    for (String name :
        new String[] {"DRAControlPlaneController", "DRADerivedAttributes", "draadminaccess"}) {
      assertThat(Feature.byName(name)).as(name).isEmpty();
    }
  }

  static Stream<Arguments> goodSpecs() {
    return Stream.of(
        Arguments.of(Named.of("empty", ""), Map.of()),
        Arguments.of(Named.of("only commas and spaces", " , ,"), Map.of()),
        Arguments.of(
            Named.of("two gates", "DRAAdminAccess=false,DRAListTypeAttributes=true"),
            Map.of(Feature.DRA_ADMIN_ACCESS, false, Feature.DRA_LIST_TYPE_ATTRIBUTES, true)),
        Arguments.of(
            Named.of("spaces tolerated", "  DRADeviceTaints = false ,  DRAPrioritizedList=true "),
            Map.of(Feature.DRA_DEVICE_TAINTS, false, Feature.DRA_PRIORITIZED_LIST, true)),
        Arguments.of(
            Named.of("go booleans", "DRADeviceTaints=F,DRADeviceTaintRules=1"),
            Map.of(Feature.DRA_DEVICE_TAINTS, false, Feature.DRA_DEVICE_TAINT_RULES, true)),
        Arguments.of(
            Named.of("last wins", "DRADeviceTaints=false,DRADeviceTaints=TRUE"),
            Map.of(Feature.DRA_DEVICE_TAINTS, true)),
        Arguments.of(
            Named.of("locked gate may be switched off", "DynamicResourceAllocation=false"),
            Map.of(Feature.DYNAMIC_RESOURCE_ALLOCATION, false)),
        Arguments.of(
            Named.of(
                "AllAlpha sets alpha gates not named", "DRAListTypeAttributes=false,AllAlpha=true"),
            Map.of(
                Feature.DRA_LIST_TYPE_ATTRIBUTES, false,
                Feature.DRA_NODE_ALLOCATABLE_RESOURCES, true,
                Feature.DRA_WORKLOAD_RESOURCE_CLAIMS, true,
                Feature.GANG_SCHEDULING, true,
                Feature.GENERIC_WORKLOAD, true)),
        Arguments.of(
            Named.of("AllBeta=false switches beta gates off", "AllBeta=false,DRADeviceTaints=true"),
            betaOffExcept(Feature.DRA_DEVICE_TAINTS)));
  }

  static Map<Feature, Boolean> betaOffExcept(Feature on) {
    Map<Feature, Boolean> m = new java.util.EnumMap<>(Feature.class);
    for (Feature f : Feature.values()) {
      if (f.stage() == Stage.BETA) {
        m.put(f, f == on);
      }
    }
    return m;
  }

  @ParameterizedTest
  @MethodSource("goodSpecs")
  void parsesSpec(String spec, Map<Feature, Boolean> expectedExplicit) {
    FeatureGates gates = FeatureGates.parse(spec);
    assertThat(gates.explicitSettings()).isEqualTo(expectedExplicit);
    for (Feature f : Feature.values()) {
      boolean expected = expectedExplicit.getOrDefault(f, f.defaultEnabled());
      assertThat(gates.enabled(f)).as(f.gateName()).isEqualTo(expected);
    }
    assertThat(FeatureGates.parse(gates.toSpec())).isEqualTo(gates);
  }

  static Stream<Arguments> badSpecs() {
    return Stream.of(
        Arguments.of(
            Named.of("unknown gate", "DRAAdminAccess=true,Nope=true"),
            "unrecognized feature gate: Nope"),
        Arguments.of(
            Named.of("removed gate", "DRAControlPlaneController=true"),
            "unrecognized feature gate: DRAControlPlaneController"),
        Arguments.of(
            Named.of("bad value", "DRAAdminAccess=maybe"),
            "invalid value of DRAAdminAccess=maybe, err: strconv.ParseBool: parsing \"maybe\":"
                + " invalid syntax"),
        Arguments.of(
            Named.of("empty value", "DRAAdminAccess="),
            "invalid value of DRAAdminAccess=, err: strconv.ParseBool: parsing \"\": invalid"
                + " syntax"),
        Arguments.of(
            Named.of("no value", " DRAAdminAccess "), "missing bool value for DRAAdminAccess"));
  }

  @ParameterizedTest
  @MethodSource("badSpecs")
  void rejectsBadSpec(String spec, String message) {
    assertThatThrownBy(() -> FeatureGates.parse(spec))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void withReturnsNewInstanceAndLeavesOriginal() {
    FeatureGates d = FeatureGates.defaults();
    FeatureGates off = d.with(Feature.DRA_ADMIN_ACCESS, false);
    assertThat(d.enabled(Feature.DRA_ADMIN_ACCESS)).isTrue();
    assertThat(off.enabled(Feature.DRA_ADMIN_ACCESS)).isFalse();
    assertThat(off.toSpec()).isEqualTo("DRAAdminAccess=false");
    assertThat(off.with(Feature.DRA_ADMIN_ACCESS, true)).isEqualTo(d);
    assertThat(off).isNotEqualTo(d);
  }

  @Test
  void toSpecIsSortedByName() {
    FeatureGates g =
        FeatureGates.defaults()
            .with(Feature.DRA_WORKLOAD_RESOURCE_CLAIMS, true)
            .with(Feature.DRA_ADMIN_ACCESS, false);
    assertThat(g.toSpec()).isEqualTo("DRAAdminAccess=false,DRAWorkloadResourceClaims=true");
  }

  @Test
  void describeListsEveryGateSortedWithLockNote() {
    String text = FeatureGates.defaults().describe();
    String[] lines = text.split("\n");
    assertThat(lines).hasSize(Feature.values().length + 2);
    assertThat(lines).isSorted();
    assertThat(lines)
        .contains(
            "DRAAdminAccess=true|false (GA - default=true, locked in Kubernetes 1.36; jdra allows"
                + " switching it off)",
            "DynamicResourceAllocation=true|false (GA - default=true, locked in Kubernetes 1.36;"
                + " jdra allows switching it off)",
            "DRAListTypeAttributes=true|false (ALPHA - default=false)",
            "AllAlpha=true|false (ALPHA - default=false)",
            "AllBeta=true|false (BETA - default=false)",
            "DRADeviceTaintRules=true|false (BETA - default=false)",
            "DRAPrioritizedList=true|false (GA - default=true)");
    Arrays.stream(Feature.values())
        .forEach(f -> assertThat(text).contains(f.gateName() + "=true|false ("));
  }
}
