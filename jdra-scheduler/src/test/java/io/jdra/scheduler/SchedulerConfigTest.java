package io.jdra.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SchedulerConfigTest {
  @Test
  void readsTheFieldsJdraHonours() {
    SchedulerConfig c =
        SchedulerConfig.parse(
            """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            percentageOfNodesToScore: 20
            leaderElection:
              leaderElect: true
            profiles:
            - schedulerName: dra-scheduler
              pluginConfig:
              - name: NodeResourcesFit
                args: {scoringStrategy: {type: LeastAllocated}}
              - name: DynamicResources
                args:
                  filterTimeout: 1m30s
                  bindingTimeout: 120s
            """);
    SchedulerOptions o = c.applyTo(SchedulerOptions.defaults());
    assertThat(o.schedulerName()).isEqualTo("dra-scheduler");
    assertThat(o.percentageOfNodesToScore()).isEqualTo(20);
    assertThat(c.leaderElect()).isTrue();
    assertThat(o.dynamicResources().filterTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(o.dynamicResources().bindingTimeout()).isEqualTo(Duration.ofSeconds(120));
  }

  @Test
  void zeroFilterTimeoutDisablesIt() {
    SchedulerConfig c =
        SchedulerConfig.parse(
            """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - pluginConfig:
              - name: DynamicResources
                args: {filterTimeout: 0s}
            """);
    assertThat(c.dynamicResources().filterTimeout()).isZero();
  }

  @Test
  void badInputSaysWhere() {
    assertThatThrownBy(
            () -> SchedulerConfig.parse("apiVersion: v1\nkind: KubeSchedulerConfiguration\n"))
        .hasMessageContaining("apiVersion: Unsupported value: \"v1\"");
    assertThatThrownBy(() ->
            SchedulerConfig.parse(
                "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 150\n"))
        .hasMessage("percentageOfNodesToScore: Invalid value: 150: not in valid range [0-100]");
    assertThatThrownBy(() ->
            SchedulerConfig.parse(
                """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - pluginConfig:
                  - name: DynamicResources
                    args: {filterTimeout: ten}
                """))
        .hasMessage(
            "profiles[0].pluginConfig[0].args.filterTimeout: Invalid value: \"ten\": time: invalid duration \"ten\"");
    assertThatThrownBy(() ->
            SchedulerConfig.parse(
                "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nbogus: 1\n"))
        .hasMessage("unknown field \"bogus\"");
  }
}
