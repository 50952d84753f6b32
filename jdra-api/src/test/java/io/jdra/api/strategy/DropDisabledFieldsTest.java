package io.jdra.api.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * For each gate and each field it guards: kept when the gate is on; dropped on create when off; on
 * update when off, dropped unless the old object already used the feature; input untouched.
 */
class DropDisabledFieldsTest {

  /** How to build, create-drop and update-drop one kind. */
  interface Kind<T> {
    T build(Consumer<T> mutator);

    T create(T obj, FeatureGates gates);

    T update(T obj, T old, FeatureGates gates);
  }

  static final Kind<ResourceClaim> CLAIM =
      new Kind<>() {
        public ResourceClaim build(Consumer<ResourceClaim> m) {
          return Fixtures.claim(m);
        }

        public ResourceClaim create(ResourceClaim o, FeatureGates g) {
          return DropDisabledFields.forCreate(o, g);
        }

        public ResourceClaim update(ResourceClaim o, ResourceClaim old, FeatureGates g) {
          return DropDisabledFields.forUpdate(o, old, g);
        }
      };

  static final Kind<ResourceClaimTemplate> TEMPLATE =
      new Kind<>() {
        public ResourceClaimTemplate build(Consumer<ResourceClaimTemplate> m) {
          throw new UnsupportedOperationException("built from claim mutators");
        }

        public ResourceClaimTemplate create(ResourceClaimTemplate o, FeatureGates g) {
          return DropDisabledFields.forCreate(o, g);
        }

        public ResourceClaimTemplate update(
            ResourceClaimTemplate o, ResourceClaimTemplate old, FeatureGates g) {
          return DropDisabledFields.forUpdate(o, old, g);
        }
      };

  static final Kind<ResourceSlice> SLICE =
      new Kind<>() {
        public ResourceSlice build(Consumer<ResourceSlice> m) {
          return Fixtures.slice(m);
        }

        public ResourceSlice create(ResourceSlice o, FeatureGates g) {
          return DropDisabledFields.forCreate(o, g);
        }

        public ResourceSlice update(ResourceSlice o, ResourceSlice old, FeatureGates g) {
          return DropDisabledFields.forUpdate(o, old, g);
        }
      };

  /**
   * One row: {@code feature} adds the gated field(s) to the base object; {@code afterDrop} is what
   * the base looks like once they are dropped (usually the base itself); {@code off} are the gates
   * under which the field must go.
   */
  record Row<T>(
      String name,
      Feature gate,
      FeatureGates off,
      Function<Consumer<T>, T> build,
      Consumer<T> feature,
      Consumer<T> afterDrop) {}

  static <T> Row<T> row(
      String name, Feature gate, Function<Consumer<T>, T> build, Consumer<T> feature) {
    return new Row<>(
        name, gate, FeatureGates.defaults().with(gate, false), build, feature, o -> {});
  }

  static final Consumer<ResourceClaim> NOTHING = c -> {};

  static List<Row<ResourceClaim>> claimRows() {
    Function<Consumer<ResourceClaim>, ResourceClaim> b = CLAIM::build;
    Consumer<ResourceClaim> requestWithoutAlternatives =
        c -> {
          Fixtures.firstAvailable(c);
          c.getSpec().getDevices().getRequests().get(1).setFirstAvailable(new ArrayList<>());
        };
    return List.of(
        new Row<>(
            "firstAvailable",
            Feature.DRA_PRIORITIZED_LIST,
            FeatureGates.defaults().with(Feature.DRA_PRIORITIZED_LIST, false),
            b,
            Fixtures::firstAvailable,
            requestWithoutAlternatives),
        row("exactly.tolerations", Feature.DRA_DEVICE_TAINTS, b, Fixtures::exactTolerations),
        new Row<>(
            "firstAvailable[].tolerations",
            Feature.DRA_DEVICE_TAINTS,
            FeatureGates.defaults().with(Feature.DRA_DEVICE_TAINTS, false),
            b,
            Fixtures::subRequestTolerations,
            Fixtures::firstAvailable),
        row("exactly.adminAccess=true", Feature.DRA_ADMIN_ACCESS, b, Fixtures::adminAccessInSpec),
        row(
            "exactly.adminAccess=false",
            Feature.DRA_ADMIN_ACCESS,
            b,
            Fixtures::adminAccessFalseInSpec),
        row("results[].adminAccess", Feature.DRA_ADMIN_ACCESS, b, Fixtures::adminAccessInStatus),
        new Row<>(
            "constraints[].distinctAttribute",
            Feature.DRA_CONSUMABLE_CAPACITY,
            FeatureGates.defaults().with(Feature.DRA_CONSUMABLE_CAPACITY, false),
            b,
            Fixtures::distinctAttribute,
            c -> {
              Fixtures.distinctAttribute(c);
              c.getSpec().getDevices().getConstraints().get(0).setDistinctAttribute(null);
            }),
        row("exactly.capacity", Feature.DRA_CONSUMABLE_CAPACITY, b, Fixtures::exactCapacity),
        new Row<>(
            "firstAvailable[].capacity",
            Feature.DRA_CONSUMABLE_CAPACITY,
            FeatureGates.defaults().with(Feature.DRA_CONSUMABLE_CAPACITY, false),
            b,
            Fixtures::subRequestCapacity,
            Fixtures::firstAvailable),
        row(
            "results[].shareID+consumedCapacity",
            Feature.DRA_CONSUMABLE_CAPACITY,
            b,
            Fixtures::shareIdInResult),
        new Row<>(
            "status.devices[].shareID",
            Feature.DRA_CONSUMABLE_CAPACITY,
            FeatureGates.defaults().with(Feature.DRA_CONSUMABLE_CAPACITY, false),
            b,
            Fixtures::shareIdInDeviceStatus,
            Fixtures::deviceStatus),
        row("status.devices", Feature.DRA_RESOURCE_CLAIM_DEVICE_STATUS, b, Fixtures::deviceStatus),
        row(
            "results[].bindingConditions",
            Feature.DRA_DEVICE_BINDING_CONDITIONS,
            b,
            Fixtures::bindingConditionsInResult));
  }

  static List<Row<ResourceSlice>> sliceRows() {
    Function<Consumer<ResourceSlice>, ResourceSlice> b = SLICE::build;
    FeatureGates statusOff =
        FeatureGates.defaults().with(Feature.DRA_RESOURCE_CLAIM_DEVICE_STATUS, false);
    return List.of(
        row("devices[].taints", Feature.DRA_DEVICE_TAINTS, b, Fixtures::sliceTaint),
        row("sharedCounters", Feature.DRA_PARTITIONABLE_DEVICES, b, Fixtures::sharedCounters),
        row(
            "devices[].consumesCounters",
            Feature.DRA_PARTITIONABLE_DEVICES,
            b,
            Fixtures::consumesCounters),
        new Row<>(
            "perDeviceNodeSelection+devices[].nodeName/nodeSelector",
            Feature.DRA_PARTITIONABLE_DEVICES,
            FeatureGates.defaults().with(Feature.DRA_PARTITIONABLE_DEVICES, false),
            b,
            Fixtures::perDeviceNodeSelection,
            s -> s.getSpec().setNodeName(null)),
        row("devices[].allNodes", Feature.DRA_PARTITIONABLE_DEVICES, b, Fixtures::deviceAllNodes),
        row(
            "devices[].bindingConditions+bindsToNode",
            Feature.DRA_DEVICE_BINDING_CONDITIONS,
            b,
            Fixtures::bindingConditionsOnDevice),
        row(
            "devices[].bindsToNode=false",
            Feature.DRA_DEVICE_BINDING_CONDITIONS,
            b,
            Fixtures::bindsToNodeOnly),
        new Row<>(
            "devices[].bindingConditions need device status too",
            Feature.DRA_DEVICE_BINDING_CONDITIONS,
            statusOff,
            b,
            Fixtures::bindingConditionsOnDevice,
            s -> {}),
        row(
            "devices[].allowMultipleAllocations",
            Feature.DRA_CONSUMABLE_CAPACITY,
            b,
            Fixtures::allowMultipleAllocations),
        row(
            "devices[].capacity[].requestPolicy",
            Feature.DRA_CONSUMABLE_CAPACITY,
            b,
            Fixtures::requestPolicy),
        row(
            "devices[].nodeAllocatableResourceMappings",
            Feature.DRA_NODE_ALLOCATABLE_RESOURCES,
            b,
            Fixtures::nodeAllocatableResourceMappings),
        row(
            "devices[].attributes[].ints",
            Feature.DRA_LIST_TYPE_ATTRIBUTES,
            b,
            Fixtures::listAttribute));
  }

  @TestFactory
  Stream<DynamicNode> resourceClaims() {
    return claimRows().stream().map(r -> container(r, CLAIM));
  }

  @TestFactory
  Stream<DynamicNode> resourceClaimTemplates() {
    return claimRows().stream()
        .filter(r -> !r.name().startsWith("results") && !r.name().startsWith("status"))
        .map(r ->
            container(
                new Row<ResourceClaimTemplate>(r.name(), r.gate(), r.off(), null, null, null),
                TEMPLATE,
                () -> Fixtures.template(r.feature()),
                () -> Fixtures.template(r.afterDrop()),
                () -> Fixtures.template(NOTHING)));
  }

  @TestFactory
  Stream<DynamicNode> resourceSlices() {
    return sliceRows().stream().map(r -> container(r, SLICE));
  }

  private static <T> DynamicContainer container(Row<T> r, Kind<T> kind) {
    return container(
        r,
        kind,
        () -> r.build().apply(r.feature()),
        () -> r.build().apply(r.afterDrop()),
        () -> r.build().apply(o -> {}));
  }

  private static <T> DynamicContainer container(
      Row<T> r,
      Kind<T> kind,
      java.util.function.Supplier<T> withFeature,
      java.util.function.Supplier<T> dropped,
      java.util.function.Supplier<T> without) {
    FeatureGates on = FeatureGates.defaults().with(r.gate(), true);
    FeatureGates off = r.off();
    return DynamicContainer.dynamicContainer(
        r.gate().gateName() + ": " + r.name(),
        Stream.of(
            dynamicTest(
                "gate on, create: kept",
                () -> assertSemantic(kind.create(withFeature.get(), on), withFeature.get())),
            dynamicTest(
                "gate off, create: dropped",
                () -> assertSemantic(kind.create(withFeature.get(), off), dropped.get())),
            dynamicTest(
                "gate off, update, old did not use it: dropped",
                () ->
                    assertSemantic(
                        kind.update(withFeature.get(), without.get(), off), dropped.get())),
            dynamicTest(
                "gate off, update, old used it: kept",
                () ->
                    assertSemantic(
                        kind.update(withFeature.get(), withFeature.get(), off), withFeature.get())),
            dynamicTest(
                "input untouched",
                () -> {
                  T input = withFeature.get();
                  kind.update(input, without.get(), off);
                  kind.create(input, off);
                  assertThat(input).isEqualTo(withFeature.get());
                }),
            dynamicTest(
                "fixture really uses the feature",
                () -> assertThat(Semantic.equal(withFeature.get(), dropped.get())).isFalse())));
  }

  static void assertSemantic(Object actual, Object expected) {
    assertThat(Semantic.equal(actual, expected))
        .as("expected%n  %s%nbut was%n  %s", expected, actual)
        .isTrue();
  }

  // ---- specific rules ----

  @Test
  void adminAccessInOldSpecKeepsNewStatusAdminAccess() {
    FeatureGates off = FeatureGates.defaults().with(Feature.DRA_ADMIN_ACCESS, false);
    ResourceClaim old = Fixtures.claim(Fixtures::adminAccessInSpec);
    ResourceClaim updated =
        Fixtures.claim(c -> {
          Fixtures.adminAccessInSpec(c);
          Fixtures.adminAccessInStatus(c);
        });

    ResourceClaim out = DropDisabledFields.forUpdate(updated, old, off);

    assertThat(out.getStatus().getAllocation().getDevices().getResults().get(0).getAdminAccess())
        .isTrue();
  }

  @Test
  void useAnywhereInOldKeepsFieldEverywhere() {
    FeatureGates off = FeatureGates.defaults().with(Feature.DRA_DEVICE_TAINTS, false);
    ResourceSlice old = Fixtures.slice(Fixtures::sliceTaint); // taint on device y
    ResourceSlice updated = Fixtures.slice(Fixtures::sliceTaint);
    updated
        .getSpec()
        .getDevices()
        .get(0)
        .getTaints()
        .add(updated.getSpec().getDevices().get(1).getTaints().get(0));

    ResourceSlice out = DropDisabledFields.forUpdate(updated, old, off);

    assertThat(out.getSpec().getDevices().get(0).getTaints()).hasSize(1);
  }

  @Test
  void otherGatesOffDoNotTouchTheField() {
    FeatureGates allOthersOff = FeatureGates.defaults();
    for (Feature f : Feature.values()) {
      if (f != Feature.DRA_ADMIN_ACCESS) {
        allOthersOff = allOthersOff.with(f, false);
      }
    }
    ResourceClaim out =
        DropDisabledFields.forCreate(Fixtures.claim(Fixtures::adminAccessInSpec), allOthersOff);
    assertThat(out.getSpec().getDevices().getRequests().get(0).getExactly().getAdminAccess())
        .isTrue();
  }

  @Test
  void extendedResourceNameOfDeviceClass() {
    FeatureGates off = FeatureGates.defaults().with(Feature.DRA_EXTENDED_RESOURCE, false);
    DeviceClass with = Fixtures.deviceClass("example.com/gpu");
    DeviceClass without = Fixtures.deviceClass(null);

    assertThat(DropDisabledFields.forCreate(with, FeatureGates.defaults()))
        .isEqualTo(Fixtures.deviceClass("example.com/gpu"));
    assertThat(DropDisabledFields.forCreate(with, off)).isEqualTo(without);
    assertThat(DropDisabledFields.forUpdate(with, without, off)).isEqualTo(without);
    assertThat(DropDisabledFields.forUpdate(with, Fixtures.deviceClass("x.com/y"), off))
        .isEqualTo(with);
    assertThat(with).isEqualTo(Fixtures.deviceClass("example.com/gpu"));
  }

  @Test
  void claimSpecEntryPoint() {
    FeatureGates off = FeatureGates.defaults().with(Feature.DRA_ADMIN_ACCESS, false);
    var spec = Fixtures.claim(Fixtures::adminAccessInSpec).getSpec();
    assertThat(
            DropDisabledFields.claimSpec(spec, null, off)
                .getDevices()
                .getRequests()
                .get(0)
                .getExactly()
                .getAdminAccess())
        .isNull();
    assertThat(
            DropDisabledFields.claimSpec(spec, spec, off)
                .getDevices()
                .getRequests()
                .get(0)
                .getExactly()
                .getAdminAccess())
        .isTrue();
    assertThat(DropDisabledFields.claimSpec(null, spec, off)).isNull();
  }

  @Test
  void emptyObjectsAreAccepted() {
    FeatureGates none = FeatureGates.parse(allOff());
    assertThat(DropDisabledFields.forCreate(new ResourceClaim(), none))
        .isEqualTo(new ResourceClaim());
    assertThat(DropDisabledFields.forCreate(new ResourceSlice(), none))
        .isEqualTo(new ResourceSlice());
    assertThat(DropDisabledFields.forCreate(new ResourceClaimTemplate(), none))
        .isEqualTo(new ResourceClaimTemplate());
    assertThat(DropDisabledFields.forCreate(new DeviceClass(), none)).isEqualTo(new DeviceClass());
    assertThat(DropDisabledFields.forCreate((ResourceClaim) null, none)).isNull();
  }

  private static String allOff() {
    StringBuilder sb = new StringBuilder();
    for (Feature f : Feature.values()) {
      sb.append(f.gateName()).append("=false,");
    }
    return sb.toString();
  }
}
