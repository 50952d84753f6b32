package io.jdra.controllers.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.jdra.controllers.controllerutil.PodTemplateHash;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Upstream's deployment_util_test.go cases for surge, unavailability and the hash. */
class DeploymentUtilTest {
  static Stream<Arguments> fenceposts() {
    // surge, unavailable, replicas -> expected surge, expected unavailable
    return Stream.of(
        Arguments.of(new IntOrString("25%"), new IntOrString("25%"), 10, 3, 2),
        Arguments.of(new IntOrString("25%"), new IntOrString("25%"), 1, 1, 0),
        Arguments.of(new IntOrString(0), new IntOrString(0), 5, 0, 1),
        Arguments.of(new IntOrString("0%"), new IntOrString("0%"), 5, 0, 1),
        Arguments.of(new IntOrString(2), new IntOrString("50%"), 3, 2, 1),
        Arguments.of(new IntOrString("100%"), new IntOrString("100%"), 3, 3, 3));
  }

  @ParameterizedTest(name = "surge {0} unavailable {1} of {2}")
  @MethodSource("fenceposts")
  void resolveFenceposts(IntOrString s, IntOrString u, int replicas, int surge, int unavail) {
    Deployment d =
        Harness.deployment(replicas, "x")
            .editSpec()
            .withNewStrategy()
            .withType("RollingUpdate")
            .withNewRollingUpdate()
            .withMaxSurge(s)
            .withMaxUnavailable(u)
            .endRollingUpdate()
            .endStrategy()
            .endSpec()
            .build();
    assertThat(DeploymentUtil.maxSurge(d)).isEqualTo(surge);
    assertThat(DeploymentUtil.maxUnavailable(d)).isEqualTo(unavail);
  }

  @Test
  void recreateHasNoSurgeAndNoUnavailability() {
    Deployment d =
        Harness.deployment(3, "x")
            .editSpec()
            .withNewStrategy()
            .withType("Recreate")
            .endStrategy()
            .endSpec()
            .build();
    assertThat(DeploymentUtil.maxSurge(d)).isZero();
    assertThat(DeploymentUtil.maxUnavailable(d)).isZero();
  }

  @Test
  void hashUsesTheSafeAlphabetAndDependsOnTemplateAndCollisionCount() {
    var t1 = Harness.deployment(1, "nginx:1").build().getSpec().getTemplate();
    var t2 = Harness.deployment(1, "nginx:2").build().getSpec().getTemplate();
    String h = PodTemplateHash.compute(t1, null);
    assertThat(h).matches("[bcdfghjklmnpqrstvwxz2456789]{1,10}");
    assertThat(PodTemplateHash.compute(t1, null)).isEqualTo(h);
    assertThat(PodTemplateHash.compute(t2, null)).isNotEqualTo(h);
    assertThat(PodTemplateHash.compute(t1, 1)).isNotEqualTo(h);
    // Upstream's SafeEncodeString maps each byte of the decimal number: '0' (48) % 27 = 21 -> '4'.
    assertThat(PodTemplateHash.safeEncodeString("0")).isEqualTo("4");
    assertThat(PodTemplateHash.safeEncodeString("1234567890")).isEqualTo("56789bcdf4");
  }

  @Test
  void equalIgnoreHashIgnoresOnlyTheHashLabel() {
    var t = Harness.deployment(1, "nginx:1").build().getSpec().getTemplate();
    var withHash =
        new io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder(t)
            .editMetadata()
            .addToLabels("pod-template-hash", "abc")
            .endMetadata()
            .build();
    var other =
        new io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder(t)
            .editMetadata()
            .addToLabels("tier", "x")
            .endMetadata()
            .build();
    assertThat(PodTemplateHash.equalIgnoreHash(t, withHash)).isTrue();
    assertThat(PodTemplateHash.equalIgnoreHash(t, other)).isFalse();
  }
}
