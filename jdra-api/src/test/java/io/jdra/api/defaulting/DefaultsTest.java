package io.jdra.api.defaulting;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.time.Instant;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DefaultsTest {
  private static final Instant NOW = Instant.parse("2026-11-21T10:20:30.987654321Z");

  private static ExactDeviceRequest exactly(String mode, Long count) {
    return new ExactDeviceRequestBuilder()
        .withDeviceClassName("gpu")
        .withAllocationMode(mode)
        .withCount(count)
        .build();
  }

  private static ResourceClaim claimWith(ExactDeviceRequest exactly) {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withName("c")
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .addToRequests(new DeviceRequestBuilder().withName("r").withExactly(exactly).build())
        .endDevices()
        .endSpec()
        .build();
  }

  static Stream<Arguments> exactCases() {
    return Stream.of(
        Arguments.of(Named.of("empty mode and count", exactly(null, null)), "ExactCount", 1L),
        Arguments.of(Named.of("empty string mode", exactly("", null)), "ExactCount", 1L),
        Arguments.of(Named.of("ExactCount count 0", exactly("ExactCount", 0L)), "ExactCount", 1L),
        Arguments.of(Named.of("count kept", exactly(null, 3L)), "ExactCount", 3L),
        Arguments.of(Named.of("All has no count", exactly("All", null)), "All", null),
        Arguments.of(Named.of("All keeps count 0", exactly("All", 0L)), "All", 0L),
        Arguments.of(Named.of("unknown mode kept", exactly("Some", null)), "Some", null));
  }

  @ParameterizedTest
  @MethodSource("exactCases")
  void defaultsExactRequest(ExactDeviceRequest in, String mode, Long count) {
    ResourceClaim claim = claimWith(in);
    ResourceClaim twin = claimWith(new ExactDeviceRequestBuilder(in).build());

    ExactDeviceRequest out =
        Defaults.resourceClaim(claim).getSpec().getDevices().getRequests().get(0).getExactly();

    assertThat(out.getAllocationMode()).isEqualTo(mode);
    assertThat(out.getCount()).isEqualTo(count);
    assertThat(claim).as("input untouched").isEqualTo(twin);
  }

  @ParameterizedTest
  @MethodSource("exactCases")
  void defaultsSubRequestsLikeExact(ExactDeviceRequest in, String mode, Long count) {
    Supplier<ResourceClaimTemplate> template =
        () ->
            new ResourceClaimTemplateBuilder()
                .withNewSpec()
                .withNewSpec()
                .withNewDevices()
                .addToRequests(
                    new DeviceRequestBuilder()
                        .withName("r")
                        .addToFirstAvailable(
                            new DeviceSubRequestBuilder()
                                .withName("s")
                                .withDeviceClassName("gpu")
                                .withAllocationMode(in.getAllocationMode())
                                .withCount(in.getCount())
                                .build())
                        .build())
                .endDevices()
                .endSpec()
                .endSpec()
                .build();
    ResourceClaimTemplate input = template.get();

    var sub =
        Defaults.resourceClaimTemplate(input)
            .getSpec()
            .getSpec()
            .getDevices()
            .getRequests()
            .get(0)
            .getFirstAvailable()
            .get(0);

    assertThat(sub.getAllocationMode()).isEqualTo(mode);
    assertThat(sub.getCount()).isEqualTo(count);
    assertThat(input).isEqualTo(template.get());
  }

  @Test
  void tolerationOperatorDefaultsToEqualEverywhere() {
    var noOp = new DeviceTolerationBuilder().withKey("k").withValue("v").build();
    var exists = new DeviceTolerationBuilder().withKey("k").withOperator("Exists").build();
    ResourceClaim claim =
        new ResourceClaimBuilder()
            .withNewSpec()
            .withNewDevices()
            .addToRequests(
                new DeviceRequestBuilder()
                    .withName("a")
                    .withExactly(
                        new ExactDeviceRequestBuilder()
                            .withDeviceClassName("gpu")
                            .withTolerations(noOp, exists)
                            .build())
                    .build(),
                new DeviceRequestBuilder()
                    .withName("b")
                    .addToFirstAvailable(
                        new DeviceSubRequestBuilder()
                            .withName("s")
                            .withDeviceClassName("gpu")
                            .withTolerations(noOp)
                            .build())
                    .build())
            .endDevices()
            .endSpec()
            .withNewStatus()
            .withNewAllocation()
            .withNewDevices()
            .addToResults(
                new DeviceRequestAllocationResultBuilder()
                    .withRequest("a")
                    .withDriver("d")
                    .withPool("p")
                    .withDevice("x")
                    .withTolerations(noOp)
                    .build())
            .endDevices()
            .endAllocation()
            .endStatus()
            .build();

    ResourceClaim out = Defaults.resourceClaim(claim);
    assertThat(Defaults.resourceClaimInPlace(new ResourceClaimBuilder(claim).build()))
        .isEqualTo(out);

    var requests = out.getSpec().getDevices().getRequests();
    assertThat(requests.get(0).getExactly().getTolerations())
        .extracting(t -> t.getOperator())
        .containsExactly("Equal", "Exists");
    assertThat(requests.get(1).getFirstAvailable().get(0).getTolerations().get(0).getOperator())
        .isEqualTo("Equal");
    assertThat(
            out.getStatus()
                .getAllocation()
                .getDevices()
                .getResults()
                .get(0)
                .getTolerations()
                .get(0)
                .getOperator())
        .isEqualTo("Equal");
    assertThat(noOp.getOperator()).as("input untouched").isNull();
  }

  private static ResourceSlice sliceWithTaints(String... timesAdded) {
    ResourceSliceBuilder b =
        new ResourceSliceBuilder()
            .withNewMetadata()
            .withName("s")
            .endMetadata()
            .withNewSpec()
            .withDriver("d")
            .withNodeName("n")
            .withNewPool()
            .withName("p")
            .withGeneration(1L)
            .withResourceSliceCount(1L)
            .endPool()
            .addNewDevice()
            .withName("dev")
            .endDevice()
            .endSpec();
    ResourceSlice s = b.build();
    for (String t : timesAdded) {
      s.getSpec()
          .getDevices()
          .get(0)
          .getTaints()
          .add(
              new DeviceTaintBuilder()
                  .withKey("k")
                  .withEffect("NoSchedule")
                  .withTimeAdded(t)
                  .build());
    }
    return s;
  }

  @Test
  void sliceTaintTimeAddedDefaultsToNowInWholeSeconds() {
    ResourceSlice in = sliceWithTaints(null, "2020-01-02T03:04:05Z");

    ResourceSlice out = Defaults.resourceSlice(in, NOW);

    assertThat(out.getSpec().getDevices().get(0).getTaints())
        .extracting(t -> t.getTimeAdded())
        .containsExactly("2026-11-21T10:20:30Z", "2020-01-02T03:04:05Z");
    assertThat(in).isEqualTo(sliceWithTaints(null, "2020-01-02T03:04:05Z"));
  }

  @Test
  void ruleTaintTimeAddedDefaultsOnlyWhenUnset() {
    Supplier<DeviceTaintRule> rule =
        () ->
            new DeviceTaintRuleBuilder()
                .withNewMetadata()
                .withName("r")
                .endMetadata()
                .withNewSpec()
                .withNewTaint()
                .withKey("k")
                .withEffect("NoExecute")
                .endTaint()
                .endSpec()
                .build();
    DeviceTaintRule in = rule.get();

    assertThat(Defaults.deviceTaintRule(in, NOW).getSpec().getTaint().getTimeAdded())
        .isEqualTo("2026-11-21T10:20:30Z");
    assertThat(in).isEqualTo(rule.get());

    DeviceTaintRule set = rule.get();
    set.getSpec().getTaint().setTimeAdded("2021-05-06T07:08:09Z");
    assertThat(Defaults.deviceTaintRule(set, NOW).getSpec().getTaint().getTimeAdded())
        .isEqualTo("2021-05-06T07:08:09Z");
  }

  @Test
  void nullGivesNull() {
    assertThat(Defaults.resourceClaim(null)).isNull();
    assertThat(Defaults.resourceClaimTemplate(null)).isNull();
    assertThat(Defaults.resourceClaimSpec(null)).isNull();
    assertThat(Defaults.resourceSlice(null, NOW)).isNull();
    assertThat(Defaults.deviceTaintRule(null, NOW)).isNull();
    assertThat(Defaults.deviceClass(null)).isNull();
  }

  @Test
  void claimWithoutSpecIsAccepted() {
    ResourceClaim c =
        new ResourceClaimBuilder().withNewMetadata().withName("x").endMetadata().build();
    assertThat(Defaults.resourceClaim(c)).isEqualTo(c).isNotSameAs(c);
  }

  @Test
  void formatTimeIsRfc3339Seconds() {
    assertThat(Defaults.formatTime(Instant.parse("2026-01-02T03:04:05.999Z")))
        .isEqualTo("2026-01-02T03:04:05Z");
  }
}
