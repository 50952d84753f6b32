package io.jdra.api.validation;

import static io.jdra.api.validation.Messages.DNS_LABEL;
import static io.jdra.api.validation.Messages.DNS_SUBDOMAIN;
import static io.jdra.api.validation.Messages.LABEL_KEY_NAME;
import static io.jdra.api.validation.Messages.LABEL_VALUE;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** ResourceClaimTemplate, DeviceClass and DeviceTaintRule tables. */
class OtherKindsValidationTest {
  static DeviceSelector cel(String expression) {
    return new DeviceSelectorBuilder().withNewCel().withExpression(expression).endCel().build();
  }

  static DeviceClassConfiguration opaque(Object parameters) {
    return new DeviceClassConfigurationBuilder()
        .withNewOpaque()
        .withDriver(Fixtures.DRIVER)
        .withParameters(parameters)
        .endOpaque()
        .build();
  }

  // ---- ResourceClaimTemplate ----

  static Stream<Case<ResourceClaimTemplate>> templateCases() {
    return Stream.of(
        Case.of("valid", t -> {}),
        Case.of(
            "template labels and annotations",
            t -> {
              t.getSpec().setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
              t.getSpec().getMetadata().setLabels(Map.of("app", "x"));
              t.getSpec().getMetadata().setAnnotations(Map.of("example.com/a", "x"));
            }),
        Case.of(
            "template metadata fields that cannot be set",
            t -> {
              var m = new io.fabric8.kubernetes.api.model.ObjectMeta();
              m.setName("n");
              m.setNamespace("ns");
              m.setUid("u");
              m.setFinalizers(List.of("example.com/f"));
              m.setLabels(Map.of("k", "-v"));
              t.getSpec().setMetadata(m);
            },
            "spec.metadata.labels: Invalid value: \"-v\": " + LABEL_VALUE,
            "spec.metadata.name: Forbidden: cannot be set",
            "spec.metadata.namespace: Forbidden: cannot be set",
            "spec.metadata.uID: Forbidden: cannot be set",
            "spec.metadata.finalizers: Forbidden: cannot be set"),
        Case.of(
            "claim spec is checked",
            t -> t.getSpec().getSpec().getDevices().getRequests().get(0).getExactly().setCount(0L),
            "spec.spec.devices.requests[0].exactly.count: Invalid value: 0: must be greater than zero"),
        Case.of(
            "bad template name",
            t -> t.getMetadata().setName("T"),
            "metadata.name: Invalid value: \"T\": " + DNS_SUBDOMAIN));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("templateCases")
  void templateCreate(Case<ResourceClaimTemplate> tc) {
    ResourceClaimTemplate t = Fixtures.with(Fixtures.template(), tc.change());
    assertThat(Fixtures.strings(Validation.validateResourceClaimTemplate(t)))
        .containsExactlyElementsOf(tc.expected());
  }

  @Test
  void templateSpecIsImmutable() {
    ResourceClaimTemplate old = Fixtures.template();
    old.getMetadata().setResourceVersion("1");
    ResourceClaimTemplate t = Fixtures.template();
    t.getMetadata().setResourceVersion("1");
    assertThat(Validation.validateResourceClaimTemplateUpdate(t, old)).isEmpty();
    t.getSpec().getSpec().getDevices().getRequests().get(0).setName("other");
    assertThat(Fixtures.strings(Validation.validateResourceClaimTemplateUpdate(t, old)))
        .containsExactly(
            "spec: Invalid value: {\"spec\":{\"devices\":{\"requests\":[{\"exactly\":{"
                + "\"allocationMode\":\"ExactCount\",\"count\":1,\"deviceClassName\":\"gpu\"},"
                + "\"name\":\"other\"}]}}}: field is immutable");
  }

  // ---- DeviceClass ----

  static Stream<Case<DeviceClass>> classCases() {
    return Stream.of(
        Case.of("valid", c -> {}),
        Case.of(
            "bad name",
            c -> c.getMetadata().setName("GPU"),
            "metadata.name: Invalid value: \"GPU\": " + DNS_SUBDOMAIN),
        Case.of(
            "name too long",
            c -> c.getMetadata().setName("a".repeat(254)),
            "metadata.name: Invalid value: \""
                + "a".repeat(254)
                + "\": must be no more than 253 bytes"),
        Case.of(
            "generateName without name",
            c -> {
              c.getMetadata().setName(null);
              c.getMetadata().setGenerateName("gpu-");
            },
            "metadata.name: Internal error: generateName was specified (\"gpu-\"), but no name was"
                + " generated",
            "metadata.name: Required value: name or generateName is required"),
        Case.of(
            "namespace is forbidden",
            c -> c.getMetadata().setNamespace("default"),
            "metadata.namespace: Forbidden: not allowed on this type"),
        Case.of("no selectors", c -> c.getSpec().setSelectors(List.of())),
        Case.of(
            "33 selectors",
            c -> c.getSpec().setSelectors(Fixtures.times(33, i -> cel("true"))),
            "spec.selectors: Too many: 33: must have at most 32 items"),
        Case.of(
            "selector expression too long",
            c -> c.getSpec().setSelectors(List.of(cel("x".repeat(10241)))),
            "spec.selectors[0].cel.expression: Too long: may not be more than 10240 bytes"),
        Case.of(
            "selector without cel",
            c -> c.getSpec().setSelectors(List.of(new DeviceSelector())),
            "spec.selectors[0].cel: Required value"),
        Case.of("config", c -> c.getSpec().setConfig(List.of(opaque(Map.of("a", 1))))),
        Case.of(
            "33 configs",
            c -> c.getSpec().setConfig(Fixtures.times(33, i -> opaque(Map.of()))),
            "spec.config: Too many: 33: must have at most 32 items"),
        Case.of(
            "config too large",
            c -> c.getSpec().setConfig(List.of(opaque(Map.of("a", "x".repeat(10240))))),
            "spec.config[0].opaque.parameters: Too long: may not be more than 10240 bytes"),
        Case.of(
            "config without opaque",
            c -> c.getSpec().setConfig(List.of(new DeviceClassConfiguration())),
            "spec.config[0].opaque: Required value"),
        Case.of(
            "extended resource name", c -> c.getSpec().setExtendedResourceName("example.com/gpu")),
        Case.of(
            "extended resource name without domain",
            c -> c.getSpec().setExtendedResourceName("gpu"),
            "spec.extendedResourceName: Invalid value: \"gpu\": must be a valid extended resource name"),
        Case.of(
            "extended resource name in kubernetes.io",
            c -> c.getSpec().setExtendedResourceName("kubernetes.io/gpu"),
            "spec.extendedResourceName: Invalid value: \"kubernetes.io/gpu\": must be a valid"
                + " extended resource name"),
        Case.of(
            "extended resource name with requests prefix",
            c -> c.getSpec().setExtendedResourceName("requests.example.com/gpu"),
            "spec.extendedResourceName: Invalid value: \"requests.example.com/gpu\": must be a valid"
                + " extended resource name"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("classCases")
  void classCreate(Case<DeviceClass> tc) {
    DeviceClass c = Fixtures.with(Fixtures.deviceClass(), tc.change());
    assertThat(Fixtures.strings(Validation.validateDeviceClass(c)))
        .containsExactlyElementsOf(tc.expected());
  }

  @Test
  void classUpdateTreatsUnchangedSelectorsAndConfigAsStored() {
    DeviceClass old = Fixtures.deviceClass();
    old.getMetadata().setResourceVersion("1");
    old.getSpec().setSelectors(List.of(cel("x".repeat(10241))));
    old.getSpec().setConfig(List.of(opaque(Map.of("a", "x".repeat(10240)))));
    DeviceClass c = Fixtures.deviceClass();
    c.getMetadata().setResourceVersion("1");
    c.getSpec().setSelectors(List.of(cel("x".repeat(10241))));
    c.getSpec().setConfig(List.of(opaque(Map.of("a", "x".repeat(10240)))));
    assertThat(Validation.validateDeviceClassUpdate(c, old)).isEmpty();

    c.getSpec().setSelectors(List.of(cel("y".repeat(10241))));
    c.getSpec().setConfig(List.of(opaque(Map.of("b", "x".repeat(10240)))));
    assertThat(Fixtures.strings(Validation.validateDeviceClassUpdate(c, old)))
        .containsExactly(
            "spec.selectors[0].cel.expression: Too long: may not be more than 10240 bytes",
            "spec.config[0].opaque.parameters: Too long: may not be more than 10240 bytes");
  }

  @Test
  void selectorCompilerIsCalledForNewExpressions() {
    ValidationOptions opts =
        ValidationOptions.defaults()
            .withSelectorCompiler((expression, path) ->
                expression.equals("bad")
                    ? List.of(FieldError.invalid(path, expression, "compilation failed: nope"))
                    : List.of());
    DeviceClass c = Fixtures.deviceClass();
    c.getSpec().setSelectors(List.of(cel("ok"), cel("bad"), cel("")));
    assertThat(Fixtures.strings(Validation.validateDeviceClass(c, opts)))
        .containsExactly(
            "spec.selectors[1].cel.expression: Invalid value: \"bad\": compilation failed: nope");
  }

  // ---- DeviceTaintRule ----

  static Stream<Case<DeviceTaintRule>> ruleCases() {
    return Stream.of(
        Case.of("valid", r -> {}),
        Case.of("no selector", r -> r.getSpec().setDeviceSelector(null)),
        Case.of("effect None", r -> r.getSpec().getTaint().setEffect("None")),
        Case.of(
            "selector problems",
            r -> {
              r.getSpec().getDeviceSelector().setDriver("");
              r.getSpec().getDeviceSelector().setPool("a//b");
              r.getSpec().getDeviceSelector().setDevice("Dev");
            },
            "spec.deviceSelector.driver: Required value",
            "spec.deviceSelector.driver: Invalid value: \"\": " + DNS_SUBDOMAIN,
            "spec.deviceSelector.pool: Invalid value: \"\": " + DNS_SUBDOMAIN,
            "spec.deviceSelector.device: Invalid value: \"Dev\": " + DNS_LABEL),
        Case.of(
            "taint without key and effect",
            r -> {
              r.getSpec().getTaint().setKey(null);
              r.getSpec().getTaint().setEffect(null);
            },
            "spec.taint.key: Invalid value: \"\": name part must be non-empty",
            "spec.taint.key: Invalid value: \"\": " + LABEL_KEY_NAME,
            "spec.taint.effect: Required value"),
        Case.of(
            "taint bad effect",
            r -> r.getSpec().getTaint().setEffect("Evict"),
            "spec.taint.effect: Unsupported value: \"Evict\": supported values: \"NoExecute\","
                + " \"NoSchedule\", \"None\""),
        Case.of(
            "taint bad key prefix",
            r -> r.getSpec().getTaint().setKey("/k"),
            "spec.taint.key: Invalid value: \"/k\": prefix part must be non-empty"),
        Case.of(
            "namespace is forbidden",
            r -> r.getMetadata().setNamespace("default"),
            "metadata.namespace: Forbidden: not allowed on this type"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ruleCases")
  void ruleCreate(Case<DeviceTaintRule> tc) {
    DeviceTaintRule r = Fixtures.with(Fixtures.taintRule(), tc.change());
    assertThat(Fixtures.strings(Validation.validateDeviceTaintRule(r)))
        .containsExactlyElementsOf(tc.expected());
  }

  @Test
  void ruleUpdateKeepsAnUnchangedEffect() {
    DeviceTaintRule old = Fixtures.taintRule();
    old.getMetadata().setResourceVersion("1");
    old.getSpec().getTaint().setEffect("Legacy");
    DeviceTaintRule r = Fixtures.taintRule();
    r.getMetadata().setResourceVersion("1");
    r.getSpec().getTaint().setEffect("Legacy");
    assertThat(Validation.validateDeviceTaintRuleUpdate(r, old)).isEmpty();
    r.getSpec().getTaint().setEffect("Other");
    assertThat(Fixtures.strings(Validation.validateDeviceTaintRuleUpdate(r, old)))
        .containsExactly(
            "spec.taint.effect: Unsupported value: \"Other\": supported values: \"NoExecute\","
                + " \"NoSchedule\", \"None\"");
  }

  @Test
  void ruleStatusConditions() {
    DeviceTaintRule old = Fixtures.taintRule();
    old.getMetadata().setResourceVersion("1");
    DeviceTaintRule r = Fixtures.taintRule();
    r.getMetadata().setResourceVersion("1");
    var ok =
        new ConditionBuilder()
            .withType("EvictionInProgress")
            .withStatus("False")
            .withReason("Completed")
            .withLastTransitionTime("2026-01-01T00:00:00Z")
            .build();
    r.setStatus(new DeviceTaintRuleStatus(List.of(ok)));
    assertThat(Validation.validateDeviceTaintRuleStatusUpdate(r, old)).isEmpty();

    var conditions = Fixtures.times(9, i -> new ConditionBuilder(ok).withType("c" + i).build());
    var withReasonMissing = new ConditionBuilder(ok).withReason(null).build();
    var all = new java.util.ArrayList<>(conditions);
    all.set(0, withReasonMissing);
    r.setStatus(new DeviceTaintRuleStatus(all));
    assertThat(Fixtures.strings(Validation.validateDeviceTaintRuleStatusUpdate(r, old)))
        .containsExactly(
            "status.conditions[0].reason: Required value",
            "status.conditions: Too many: 9: must have at most 8 items");
  }
}
