package io.jdra.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Upstream's backoff_utils_test.go and pod_failure_policy_test.go, in short. */
class BackoffAndPolicyTest {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @ParameterizedTest(name = "{0} failures wait {1} s")
  @CsvSource({"0,0", "1,10", "2,20", "3,40", "4,80", "5,160", "6,320", "7,600", "20,600"})
  void backoffDoublesFrom10sUpTo10min(int failures, long seconds) {
    BackoffStore.Record r = new BackoffStore.Record("k", failures, T0);
    assertThat(r.remaining(T0)).isEqualTo(Duration.ofSeconds(seconds));
    assertThat(r.remaining(T0.plusSeconds(5)))
        .isEqualTo(Duration.ofSeconds(Math.max(0, seconds - 5)));
  }

  static Pod finished(String name, boolean success, Instant at) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("ns")
        .endMetadata()
        .withStatus(Harness.finished(success, success ? 0 : 1, at))
        .build();
  }

  @Test
  void aSuccessResetsTheFailuresBeforeIt() {
    BackoffStore store = new BackoffStore();
    BackoffStore.Record r =
        store.next("k", List.of(), List.of(finished("a", false, T0), finished("b", false, T0)));
    assertThat(r.failuresAfterLastSuccess()).isEqualTo(2);
    store.update(r);
    r =
        store.next(
            "k",
            List.of(finished("s", true, T0.plusSeconds(10))),
            List.of(
                finished("c", false, T0.plusSeconds(5)), finished("d", false, T0.plusSeconds(20))));
    assertThat(r.failuresAfterLastSuccess()).isEqualTo(1);
    assertThat(r.lastFailureTime()).isEqualTo(T0.plusSeconds(20));
  }

  @Test
  void policyRulesMatchInOrder() {
    PodFailurePolicy policy =
        new PodFailurePolicyBuilder()
            .addNewRule()
            .withAction("Ignore")
            .addNewOnPodCondition()
            .withType("DisruptionTarget")
            .withStatus("True")
            .endOnPodCondition()
            .endRule()
            .addNewRule()
            .withAction("Count")
            .withNewOnExitCodes()
            .withOperator("NotIn")
            .withValues(42)
            .endOnExitCodes()
            .endRule()
            .addNewRule()
            .withAction("FailJob")
            .withNewOnExitCodes()
            .withContainerName("c")
            .withOperator("In")
            .withValues(42)
            .endOnExitCodes()
            .endRule()
            .build();
    Pod exit1 = finished("p", false, T0);
    assertThat(PodFailurePolicies.match(policy, exit1))
        .isEqualTo(new PodFailurePolicies.Match(null, true, "Count"));
    Pod exit42 = new PodBuilder(exit1).withStatus(Harness.finished(false, 42, T0)).build();
    assertThat(PodFailurePolicies.match(policy, exit42).failJobMessage())
        .isEqualTo(
            "Container c for pod ns/p failed with exit code 42 matching FailJob rule at index 2");
    Pod disrupted =
        new PodBuilder(exit42)
            .editStatus()
            .addNewCondition()
            .withType("DisruptionTarget")
            .withStatus("True")
            .endCondition()
            .endStatus()
            .build();
    assertThat(PodFailurePolicies.match(policy, disrupted))
        .isEqualTo(new PodFailurePolicies.Match(null, false, "Ignore"));
    assertThat(PodFailurePolicies.match(null, exit42)).isEqualTo(PodFailurePolicies.Match.DEFAULT);
  }
}
