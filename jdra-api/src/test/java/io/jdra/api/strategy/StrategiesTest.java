package io.jdra.api.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class StrategiesTest {
  private static final FeatureGates DEFAULTS = FeatureGates.defaults();
  private static final FeatureGates ADMIN_OFF =
      FeatureGates.defaults().with(Feature.DRA_ADMIN_ACCESS, false);
  private static final Instant NOW = Instant.parse("2026-11-22T01:02:03.456Z");

  @Nested
  class ResourceClaims {
    @Test
    void createResetsStatusAndDropsSpecFields() {
      ResourceClaim in = Fixtures.claim(Fixtures::adminAccessInSpec);

      ResourceClaim out = ResourceClaimStrategy.prepareForCreate(in, ADMIN_OFF);

      assertThat(out.getStatus()).isEqualTo(new ResourceClaimStatus());
      assertThat(out.getSpec().getDevices().getRequests().get(0).getExactly().getAdminAccess())
          .isNull();
      assertThat(out.getMetadata()).isEqualTo(in.getMetadata());
      assertThat(in).isEqualTo(Fixtures.claim(Fixtures::adminAccessInSpec));
    }

    @Test
    void createInPlaceGivesWhatTheCopyingCreateGives() {
      ResourceClaim copied =
          ResourceClaimStrategy.prepareForCreate(
              Fixtures.claim(Fixtures::adminAccessInSpec), ADMIN_OFF);
      ResourceClaim owned = Fixtures.claim(Fixtures::adminAccessInSpec);

      ResourceClaim out = ResourceClaimStrategy.prepareForCreateInPlace(owned, ADMIN_OFF);

      assertThat(out).isSameAs(owned).isEqualTo(copied);
    }

    /** Claim shapes that exercise each gated field, as request and as stored object. */
    private static final List<java.util.function.Consumer<ResourceClaim>> SHAPES =
        List.of(
            c -> {},
            Fixtures::firstAvailable,
            Fixtures::exactTolerations,
            Fixtures::subRequestTolerations,
            Fixtures::adminAccessInSpec,
            Fixtures::adminAccessInStatus,
            Fixtures::distinctAttribute,
            Fixtures::exactCapacity,
            Fixtures::shareIdInResult,
            Fixtures::deviceStatus,
            Fixtures::shareIdInDeviceStatus,
            Fixtures::bindingConditionsInResult,
            c -> c.getStatus().setAllocation(null));

    private static final List<FeatureGates> GATES =
        List.of(
            DEFAULTS,
            ADMIN_OFF,
            FeatureGates.defaults()
                .with(Feature.DRA_PRIORITIZED_LIST, false)
                .with(Feature.DRA_DEVICE_TAINTS, false)
                .with(Feature.DRA_CONSUMABLE_CAPACITY, false)
                .with(Feature.DRA_RESOURCE_CLAIM_DEVICE_STATUS, false)
                .with(Feature.DRA_DEVICE_BINDING_CONDITIONS, false));

    @Test
    void updatesInPlaceGiveWhatTheCopyingUpdatesGiveAndLeaveTheStoredClaimAlone() {
      for (FeatureGates gates : GATES) {
        for (var request : SHAPES) {
          for (var stored : SHAPES) {
            ResourceClaim old = Fixtures.claim(stored);
            old.getMetadata().setGeneration(3L);
            old.getMetadata().getFinalizers().add("resource.kubernetes.io/delete-protection");
            ResourceClaim in = Fixtures.claim(request);
            in.getMetadata().getLabels().put("l", "v");
            in.getMetadata().setResourceVersion("42");
            ResourceClaim oldBefore = Fixtures.claim(stored);
            oldBefore.setMetadata(new ObjectMetaBuilder(old.getMetadata()).build());

            assertThat(
                    ResourceClaimStrategy.prepareForUpdateInPlace(
                        Fixtures.claim(request), old, gates))
                .as("update, %s", gates)
                .isEqualTo(
                    ResourceClaimStrategy.prepareForUpdate(Fixtures.claim(request), old, gates));
            ResourceClaim owned = Fixtures.claim(request);
            owned.getMetadata().getLabels().put("l", "v");
            owned.getMetadata().setResourceVersion("42");
            ResourceClaim copied = ResourceClaimStrategy.prepareForStatusUpdate(in, old, gates);
            assertThat(ResourceClaimStrategy.prepareForStatusUpdateInPlace(owned, old, gates))
                .as("status update, %s", gates)
                .isSameAs(owned)
                .isEqualTo(copied);
            assertThat(old).as("stored claim, %s", gates).isEqualTo(oldBefore);
          }
        }
      }
    }

    @Test
    void updateKeepsStoredStatus() {
      ResourceClaim old = Fixtures.claim();
      ResourceClaim in = Fixtures.claim(c -> c.getStatus().setAllocation(null));
      in.getMetadata().getLabels().put("l", "v");

      ResourceClaim out = ResourceClaimStrategy.prepareForUpdate(in, old, DEFAULTS);

      assertThat(out.getStatus()).isEqualTo(old.getStatus());
      assertThat(out.getMetadata().getLabels()).containsEntry("l", "v");
    }

    @Test
    void updateDropsSpecFieldUnlessStoredClaimUsedIt() {
      ResourceClaim in = Fixtures.claim(Fixtures::adminAccessInSpec);
      assertThat(
              ResourceClaimStrategy.prepareForUpdate(in, Fixtures.claim(), ADMIN_OFF)
                  .getSpec()
                  .getDevices()
                  .getRequests()
                  .get(0)
                  .getExactly()
                  .getAdminAccess())
          .isNull();
      assertThat(
              ResourceClaimStrategy.prepareForUpdate(
                      in, Fixtures.claim(Fixtures::adminAccessInSpec), ADMIN_OFF)
                  .getSpec()
                  .getDevices()
                  .getRequests()
                  .get(0)
                  .getExactly()
                  .getAdminAccess())
          .isTrue();
    }

    @Test
    void statusUpdateKeepsStoredSpecAndMetadata() {
      ResourceClaim old = Fixtures.claim();
      old.getMetadata().setGeneration(3L);
      old.getMetadata().getFinalizers().add("resource.kubernetes.io/delete-protection");
      ResourceClaim in = Fixtures.claim(Fixtures::exactTolerations);
      in.getMetadata().getLabels().put("sneaky", "yes");
      in.getMetadata().setGeneration(99L);
      in.getMetadata().setResourceVersion("42");
      in.getStatus()
          .getReservedFor()
          .add(
              new ResourceClaimConsumerReferenceBuilder()
                  .withResource("pods")
                  .withName("p")
                  .withUid("u")
                  .build());

      ResourceClaim out = ResourceClaimStrategy.prepareForStatusUpdate(in, old, DEFAULTS);

      assertThat(out.getSpec()).isEqualTo(old.getSpec());
      assertThat(out.getMetadata().getLabels()).isEmpty();
      assertThat(out.getMetadata().getGeneration()).isEqualTo(3L);
      assertThat(out.getMetadata().getFinalizers())
          .containsExactly("resource.kubernetes.io/delete-protection");
      assertThat(out.getMetadata().getResourceVersion()).isEqualTo("42");
      assertThat(out.getStatus().getReservedFor()).hasSize(1);
    }

    @Test
    void statusUpdateDropsStatusFieldsUnlessStoredClaimUsedThem() {
      ResourceClaim in = Fixtures.claim(Fixtures::adminAccessInStatus);
      assertThat(
              result0(ResourceClaimStrategy.prepareForStatusUpdate(in, Fixtures.claim(), ADMIN_OFF))
                  .getAdminAccess())
          .isNull();
      assertThat(
              result0(
                      ResourceClaimStrategy.prepareForStatusUpdate(
                          in, Fixtures.claim(Fixtures::adminAccessInSpec), ADMIN_OFF))
                  .getAdminAccess())
          .as("old spec used admin access")
          .isTrue();
      assertThat(
              result0(ResourceClaimStrategy.prepareForStatusUpdate(in, Fixtures.claim(), DEFAULTS))
                  .getAdminAccess())
          .isTrue();
    }

    private static io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult
        result0(ResourceClaim c) {
      return c.getStatus().getAllocation().getDevices().getResults().get(0);
    }

    private static void statusFor(ResourceClaim c, String device, String shareId) {
      c.getStatus()
          .getDevices()
          .add(
              new AllocatedDeviceStatusBuilder()
                  .withDriver("dra.example.com")
                  .withPool("pool")
                  .withDevice(device)
                  .withShareID(shareId)
                  .build());
    }

    @Test
    void statusUpdateRemovesDeviceStatusOfDeallocatedDevices() {
      ResourceClaim old =
          Fixtures.claim(c -> {
            statusFor(c, "x", null);
            statusFor(c, "y", null);
          });
      // Device y is no longer allocated; the driver did not clean up its status entry.
      ResourceClaim in =
          Fixtures.claim(c -> {
            c.getStatus().getAllocation().getDevices().getResults().remove(1);
            statusFor(c, "x", null);
            statusFor(c, "y", null);
            statusFor(c, "z", null); // never allocated: kept, validation judges it
          });

      ResourceClaim out = ResourceClaimStrategy.prepareForStatusUpdate(in, old, DEFAULTS);

      assertThat(out.getStatus().getDevices())
          .extracting(d -> d.getDevice())
          .containsExactly("x", "z");
    }

    @Test
    void deallocationRemovesAllDeviceStatus() {
      ResourceClaim old = Fixtures.claim(c -> statusFor(c, "x", null));
      ResourceClaim in =
          Fixtures.claim(c -> {
            c.getStatus().setAllocation(null);
            statusFor(c, "x", null);
          });

      ResourceClaim out = ResourceClaimStrategy.prepareForStatusUpdate(in, old, DEFAULTS);

      assertThat(out.getStatus().getDevices()).isEmpty();
    }

    @Test
    void deallocatedDevicesAreMatchedWithShareId() {
      String share = "7a1f0c9e-3b7c-4a57-9a57-0b1de4f2c001";
      ResourceClaim old =
          Fixtures.claim(c -> {
            c.getStatus().getAllocation().getDevices().getResults().get(0).setShareID(share);
            statusFor(c, "x", share);
          });
      ResourceClaim in =
          Fixtures.claim(c -> {
            statusFor(c, "x", share); // result for x no longer has this share
          });

      ResourceClaim out = ResourceClaimStrategy.prepareForStatusUpdate(in, old, DEFAULTS);

      assertThat(out.getStatus().getDevices()).isEmpty();
    }

    @Test
    void deviceStatusGateOffAndUnusedDropsAllStatusDevices() {
      FeatureGates off =
          FeatureGates.defaults().with(Feature.DRA_RESOURCE_CLAIM_DEVICE_STATUS, false);
      ResourceClaim in = Fixtures.claim(c -> statusFor(c, "x", null));

      assertThat(
              ResourceClaimStrategy.prepareForStatusUpdate(in, Fixtures.claim(), off)
                  .getStatus()
                  .getDevices())
          .isEmpty();
    }
  }

  @Test
  void templateStrategyDropsSpecFields() {
    ResourceClaimTemplate in = Fixtures.template(Fixtures::adminAccessInSpec);
    ResourceClaimTemplate created = ResourceClaimTemplateStrategy.prepareForCreate(in, ADMIN_OFF);
    ResourceClaimTemplate updated =
        ResourceClaimTemplateStrategy.prepareForUpdate(in, in, ADMIN_OFF);

    assertThat(
            created
                .getSpec()
                .getSpec()
                .getDevices()
                .getRequests()
                .get(0)
                .getExactly()
                .getAdminAccess())
        .isNull();
    assertThat(
            updated
                .getSpec()
                .getSpec()
                .getDevices()
                .getRequests()
                .get(0)
                .getExactly()
                .getAdminAccess())
        .isTrue();
    assertThat(created.getMetadata()).isEqualTo(in.getMetadata());
  }

  @Nested
  class ResourceSlices {
    @Test
    void createSetsGenerationOne() {
      ResourceSlice out = ResourceSliceStrategy.prepareForCreate(Fixtures.slice(), DEFAULTS);
      assertThat(out.getMetadata().getGeneration()).isEqualTo(1L);
    }

    @Test
    void updateBumpsGenerationOnlyWhenSpecChanges() {
      ResourceSlice old = Fixtures.slice(); // generation 4
      ResourceSlice same = Fixtures.slice();
      same.getMetadata().setGeneration(77L);
      same.getMetadata().getLabels().put("only", "metadata");
      ResourceSlice changed = Fixtures.slice(Fixtures::sliceTaint);

      assertThat(
              ResourceSliceStrategy.prepareForUpdate(same, old, DEFAULTS)
                  .getMetadata()
                  .getGeneration())
          .isEqualTo(4L);
      assertThat(
              ResourceSliceStrategy.prepareForUpdate(changed, old, DEFAULTS)
                  .getMetadata()
                  .getGeneration())
          .isEqualTo(5L);
    }

    @Test
    void nullVersusEmptyCollectionsIsNoSpecChange() {
      ResourceSlice old = Fixtures.slice();
      ResourceSlice same = Fixtures.slice();
      same.getSpec().setSharedCounters(null);
      same.getSpec().getDevices().get(0).setTaints(null);

      assertThat(
              ResourceSliceStrategy.prepareForUpdate(same, old, DEFAULTS)
                  .getMetadata()
                  .getGeneration())
          .isEqualTo(4L);
    }

    @Test
    void updateDropsFieldsOfDisabledGates() {
      FeatureGates off = FeatureGates.defaults().with(Feature.DRA_DEVICE_TAINTS, false);
      ResourceSlice out =
          ResourceSliceStrategy.prepareForUpdate(
              Fixtures.slice(Fixtures::sliceTaint), Fixtures.slice(), off);
      assertThat(out.getSpec().getDevices().get(1).getTaints()).isEmpty();
    }
  }

  @Nested
  class DeviceClasses {
    @Test
    void createSetsGenerationOneAndDrops() {
      FeatureGates off = FeatureGates.defaults().with(Feature.DRA_EXTENDED_RESOURCE, false);
      DeviceClass out = DeviceClassStrategy.prepareForCreate(Fixtures.deviceClass("a.b/c"), off);
      assertThat(out.getMetadata().getGeneration()).isEqualTo(1L);
      assertThat(out.getSpec().getExtendedResourceName()).isNull();
    }

    @Test
    void generationComparesTheDroppedSpec() {
      FeatureGates off = FeatureGates.defaults().with(Feature.DRA_EXTENDED_RESOURCE, false);
      DeviceClass old = Fixtures.deviceClass(null); // generation 2
      // Only the dropped field differs: no spec change remains, no bump.
      assertThat(
              DeviceClassStrategy.prepareForUpdate(Fixtures.deviceClass("a.b/c"), old, off)
                  .getMetadata()
                  .getGeneration())
          .isEqualTo(2L);
      assertThat(
              DeviceClassStrategy.prepareForUpdate(Fixtures.deviceClass("a.b/c"), old, DEFAULTS)
                  .getMetadata()
                  .getGeneration())
          .isEqualTo(3L);
    }
  }

  @Nested
  class DeviceTaintRules {
    Supplier<DeviceTaintRule> rule(String effect, String timeAdded) {
      return () ->
          new DeviceTaintRuleBuilder()
              .withNewMetadata()
              .withName("r")
              .withGeneration(5L)
              .endMetadata()
              .withNewSpec()
              .withNewDeviceSelector()
              .withDriver("dra.example.com")
              .endDeviceSelector()
              .withNewTaint()
              .withKey("k")
              .withEffect(effect)
              .withTimeAdded(timeAdded)
              .endTaint()
              .endSpec()
              .withNewStatus()
              .addToConditions(
                  new io.fabric8.kubernetes.api.model.ConditionBuilder()
                      .withType("EvictionInProgress")
                      .withStatus("True")
                      .build())
              .endStatus()
              .build();
    }

    @Test
    void createResetsStatusAndGeneration() {
      DeviceTaintRule out =
          DeviceTaintRuleStrategy.prepareForCreate(rule("NoExecute", "2026-01-01T00:00:00Z").get());
      assertThat(out.getStatus().getConditions()).isEmpty();
      assertThat(out.getMetadata().getGeneration()).isEqualTo(1L);
    }

    @Test
    void effectChangeWithUnchangedTimeAddedBumpsTimeAdded() {
      DeviceTaintRule old = rule("NoSchedule", "2026-01-01T00:00:00Z").get();
      DeviceTaintRule in = rule("NoExecute", "2026-01-01T00:00:00+00:00").get();
      in.getStatus().getConditions().clear();

      DeviceTaintRule out = DeviceTaintRuleStrategy.prepareForUpdate(in, old, NOW);

      assertThat(out.getSpec().getTaint().getTimeAdded()).isEqualTo("2026-11-22T01:02:03Z");
      assertThat(out.getMetadata().getGeneration()).isEqualTo(6L);
      assertThat(out.getStatus()).isEqualTo(old.getStatus());
    }

    @Test
    void effectChangeWithClientTimeAddedKeepsIt() {
      DeviceTaintRule old = rule("NoSchedule", "2026-01-01T00:00:00Z").get();
      DeviceTaintRule in = rule("NoExecute", "2026-02-02T00:00:00Z").get();

      assertThat(
              DeviceTaintRuleStrategy.prepareForUpdate(in, old, NOW)
                  .getSpec()
                  .getTaint()
                  .getTimeAdded())
          .isEqualTo("2026-02-02T00:00:00Z");
    }

    @Test
    void noSpecChangeKeepsGenerationAndTime() {
      DeviceTaintRule old = rule("NoSchedule", "2026-01-01T00:00:00Z").get();
      DeviceTaintRule in = rule("NoSchedule", "2026-01-01T00:00:00Z").get();
      in.getMetadata().setGeneration(1L);

      DeviceTaintRule out = DeviceTaintRuleStrategy.prepareForUpdate(in, old, NOW);

      assertThat(out.getMetadata().getGeneration()).isEqualTo(5L);
      assertThat(out.getSpec().getTaint().getTimeAdded()).isEqualTo("2026-01-01T00:00:00Z");
    }

    @Test
    void statusUpdateKeepsSpecAndMetadata() {
      DeviceTaintRule old = rule("NoSchedule", "2026-01-01T00:00:00Z").get();
      DeviceTaintRule in = rule("NoExecute", "2026-03-03T00:00:00Z").get();
      in.setMetadata(
          new ObjectMetaBuilder(in.getMetadata())
              .withGeneration(9L)
              .addToAnnotations("a", "b")
              .build());
      in.getStatus().getConditions().get(0).setStatus("False");

      DeviceTaintRule out = DeviceTaintRuleStrategy.prepareForStatusUpdate(in, old);

      assertThat(out.getSpec()).isEqualTo(old.getSpec());
      assertThat(out.getMetadata().getGeneration()).isEqualTo(5L);
      assertThat(out.getMetadata().getAnnotations()).isEmpty();
      assertThat(out.getStatus().getConditions().get(0).getStatus()).isEqualTo("False");
      assertThat(in.getSpec().getTaint().getEffect()).isEqualTo("NoExecute");
    }
  }

  @Test
  void strategiesNeverModifyTheirInputs() {
    ResourceClaim in = Fixtures.claim(Fixtures::adminAccessInStatus);
    ResourceClaim old = Fixtures.claim(c -> c.getStatus().getDevices().addAll(List.of()));
    ResourceClaimStrategy.prepareForCreate(in, ADMIN_OFF);
    ResourceClaimStrategy.prepareForUpdate(in, old, ADMIN_OFF);
    ResourceClaimStrategy.prepareForStatusUpdate(in, old, ADMIN_OFF);
    assertThat(in).isEqualTo(Fixtures.claim(Fixtures::adminAccessInStatus));
    assertThat(old).isEqualTo(Fixtures.claim());

    ResourceSlice slice = Fixtures.slice(Fixtures::requestPolicy);
    ResourceSliceStrategy.prepareForUpdate(
        slice,
        Fixtures.slice(),
        FeatureGates.defaults().with(Feature.DRA_CONSUMABLE_CAPACITY, false));
    assertThat(slice).isEqualTo(Fixtures.slice(Fixtures::requestPolicy));
  }
}
