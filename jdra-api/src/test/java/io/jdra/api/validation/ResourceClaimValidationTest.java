package io.jdra.api.validation;

import static io.jdra.api.validation.Messages.C_IDENTIFIER;
import static io.jdra.api.validation.Messages.DNS_LABEL;
import static io.jdra.api.validation.Messages.DNS_SUBDOMAIN;
import static io.jdra.api.validation.Messages.LABEL_KEY_SLASHES;
import static io.jdra.api.validation.Messages.LABEL_VALUE;
import static io.jdra.api.validation.Messages.REQUEST_REF;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ResourceClaimValidationTest {
  private static final String R0 = "spec.devices.requests[0]";
  private static final String X0 = R0 + ".exactly";

  static DeviceClaim devices(ResourceClaim c) {
    return c.getSpec().getDevices();
  }

  static ExactDeviceRequest exactly(ResourceClaim c) {
    return devices(c).getRequests().get(0).getExactly();
  }

  static DeviceSelector cel(String expression) {
    return new DeviceSelectorBuilder().withNewCel().withExpression(expression).endCel().build();
  }

  static Consumer<ResourceClaim> toleration(DeviceToleration t) {
    return c -> exactly(c).setTolerations(List.of(t));
  }

  static DeviceTolerationBuilder tol() {
    return new DeviceTolerationBuilder();
  }

  /** Replaces request 0 by a firstAvailable request "req-0" with the given subrequests. */
  static Consumer<ResourceClaim> firstAvailable(String... subNames) {
    return c -> {
      DeviceRequest r = devices(c).getRequests().get(0);
      r.setExactly(null);
      List<io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest> subs = new ArrayList<>();
      for (String n : subNames) {
        subs.add(
            new DeviceSubRequestBuilder()
                .withName(n)
                .withDeviceClassName("gpu")
                .withAllocationMode("ExactCount")
                .withCount(1L)
                .build());
      }
      r.setFirstAvailable(subs);
    };
  }

  static DeviceClaimConfiguration opaque(String driver, Object parameters) {
    return new DeviceClaimConfigurationBuilder()
        .withNewOpaque()
        .withDriver(driver)
        .withParameters(parameters)
        .endOpaque()
        .build();
  }

  static Stream<Case<ResourceClaim>> createCases() {
    return Stream.of(
        Case.of("valid", c -> {}),
        // metadata
        Case.of(
            "missing name",
            c -> c.getMetadata().setName(null),
            "metadata.name: Required value: name or generateName is required"),
        Case.of(
            "bad name",
            c -> c.getMetadata().setName("Claim"),
            "metadata.name: Invalid value: \"Claim\": " + DNS_SUBDOMAIN),
        Case.of(
            "bad generateName",
            c -> c.getMetadata().setGenerateName("Claim-"),
            "metadata.generateName: Invalid value: \"Claim-\": " + DNS_SUBDOMAIN),
        Case.of("generateName with dash", c -> c.getMetadata().setGenerateName("pod-claim-")),
        Case.of(
            "missing namespace",
            c -> c.getMetadata().setNamespace(null),
            "metadata.namespace: Required value"),
        Case.of(
            "bad label value",
            c -> c.getMetadata().setLabels(Map.of("app", "-x")),
            "metadata.labels: Invalid value: \"-x\": " + LABEL_VALUE),
        Case.of(
            "bad finalizer",
            c -> c.getMetadata().setFinalizers(List.of("foo")),
            "metadata.finalizers[0]: Invalid value: \"foo\": name is neither a standard finalizer"
                + " name nor is it fully qualified"),
        Case.of(
            "qualified finalizer",
            c ->
                c.getMetadata().setFinalizers(List.of("resource.kubernetes.io/delete-protection"))),
        // requests
        Case.of(
            "count zero",
            c -> exactly(c).setCount(0L),
            X0 + ".count: Invalid value: 0: must be greater than zero"),
        Case.of(
            "negative count",
            c -> exactly(c).setCount(-1L),
            X0 + ".count: Invalid value: -1: must be greater than zero"),
        Case.of(
            "count with All",
            c -> exactly(c).setAllocationMode("All"),
            X0 + ".count: Invalid value: 1: must not be specified when allocationMode is 'All'"),
        Case.of(
            "All without count",
            c -> {
              exactly(c).setAllocationMode("All");
              exactly(c).setCount(null);
            }),
        Case.of(
            "unknown allocation mode",
            c -> exactly(c).setAllocationMode("Some"),
            X0
                + ".allocationMode: Unsupported value: \"Some\": supported values: \"All\","
                + " \"ExactCount\""),
        Case.of(
            "missing device class",
            c -> exactly(c).setDeviceClassName(""),
            X0 + ".deviceClassName: Required value"),
        Case.of(
            "bad device class",
            c -> exactly(c).setDeviceClassName("GPU"),
            X0 + ".deviceClassName: Invalid value: \"GPU\": " + DNS_SUBDOMAIN),
        Case.of(
            "bad request name",
            c -> devices(c).getRequests().get(0).setName("Req"),
            R0 + ".name: Invalid value: \"Req\": " + DNS_LABEL),
        Case.of(
            "request name with dot",
            c -> devices(c).getRequests().get(0).setName("a.b"),
            R0 + ".name: Invalid value: \"a.b\": must not contain dots"),
        Case.of(
            "request name too long",
            c -> devices(c).getRequests().get(0).setName("a".repeat(64)),
            R0
                + ".name: Invalid value: \""
                + "a".repeat(64)
                + "\": must be no more than 63 characters"),
        Case.of(
            "duplicate request",
            c ->
                devices(c)
                    .setRequests(List.of(Fixtures.exactRequest("a"), Fixtures.exactRequest("a"))),
            "spec.devices.requests[1]: Duplicate value: \"a\""),
        Case.of(
            "neither exactly nor firstAvailable",
            c -> devices(c).getRequests().get(0).setExactly(null),
            R0 + ": Required value: exactly one of `exactly` or `firstAvailable` is required"),
        Case.of(
            "both exactly and firstAvailable",
            c -> {
              ExactDeviceRequest e = exactly(c);
              firstAvailable("sub-0").accept(c);
              devices(c).getRequests().get(0).setExactly(e);
            },
            R0
                + ": Invalid value: null: exactly one of `exactly` or `firstAvailable` is required,"
                + " but multiple fields are set"),
        Case.of(
            "32 requests",
            c -> devices(c).setRequests(Fixtures.times(32, i -> Fixtures.exactRequest("r" + i)))),
        Case.of(
            "33 requests",
            c -> devices(c).setRequests(Fixtures.times(33, i -> Fixtures.exactRequest("r" + i))),
            "spec.devices.requests: Too many: 33: must have at most 32 items"),
        // firstAvailable
        Case.of("first available", firstAvailable("sub-0", "sub-1")),
        Case.of(
            "9 subrequests",
            firstAvailable("s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"),
            R0 + ".firstAvailable: Too many: 9: must have at most 8 items"),
        Case.of(
            "duplicate subrequest",
            firstAvailable("sub-0", "sub-0"),
            R0 + ".firstAvailable[1]: Duplicate value: \"sub-0\""),
        Case.of(
            "subrequest checks",
            firstAvailable("Sub")
                .andThen(c -> {
                  var s = devices(c).getRequests().get(0).getFirstAvailable().get(0);
                  s.setDeviceClassName(null);
                  s.setCount(0L);
                  s.setSelectors(List.of(new DeviceSelector()));
                  s.setTolerations(List.of(tol().withOperator("Exists").withValue("v").build()));
                }),
            R0 + ".firstAvailable[0].name: Invalid value: \"Sub\": " + DNS_LABEL,
            R0 + ".firstAvailable[0].deviceClassName: Required value",
            R0 + ".firstAvailable[0].selectors[0].cel: Required value",
            R0 + ".firstAvailable[0].count: Invalid value: 0: must be greater than zero",
            R0
                + ".firstAvailable[0].tolerations[0].value: Invalid value: \"v\": must be empty for"
                + " operator `Exists`"),
        // selectors
        Case.of("32 selectors", c -> exactly(c).setSelectors(Fixtures.times(32, i -> cel("true")))),
        Case.of(
            "33 selectors",
            c -> exactly(c).setSelectors(Fixtures.times(33, i -> cel("true"))),
            X0 + ".selectors: Too many: 33: must have at most 32 items"),
        Case.of(
            "selector without cel",
            c -> exactly(c).setSelectors(List.of(new DeviceSelector())),
            X0 + ".selectors[0].cel: Required value"),
        Case.of(
            "expression of 10 KiB",
            c -> exactly(c).setSelectors(List.of(cel("t".repeat(10 * 1024))))),
        Case.of(
            "expression too long",
            c -> exactly(c).setSelectors(List.of(cel("t".repeat(10 * 1024 + 1)))),
            X0 + ".selectors[0].cel.expression: Too long: may not be more than 10240 bytes"),
        Case.of(
            "empty expression",
            c -> exactly(c).setSelectors(List.of(cel(""))),
            X0
                + ".selectors[0].cel.expression: Invalid value: \"\": compilation failed: ERROR:"
                + " <input>:1:1: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(',"
                + " '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING,"
                + " BYTES, IDENTIFIER}\n | \n | ^"),
        // tolerations
        Case.of("toleration exists", toleration(tol().withOperator("Exists").build())),
        Case.of(
            "toleration equal",
            toleration(
                tol()
                    .withKey("example.com/k")
                    .withOperator("Equal")
                    .withValue("v")
                    .withEffect("None")
                    .build())),
        Case.of(
            "16 tolerations",
            c ->
                exactly(c)
                    .setTolerations(Fixtures.times(16, i -> tol().withOperator("Exists").build()))),
        Case.of(
            "17 tolerations",
            c ->
                exactly(c)
                    .setTolerations(Fixtures.times(17, i -> tol().withOperator("Exists").build())),
            X0 + ".tolerations: Too many: 17: must have at most 16 items"),
        Case.of(
            "toleration without operator",
            toleration(tol().withKey("k").build()),
            X0 + ".tolerations[0].operator: Required value"),
        Case.of(
            "toleration bad operator",
            toleration(tol().withOperator("In").build()),
            X0
                + ".tolerations[0].operator: Unsupported value: \"In\": supported values:"
                + " \"Equal\", \"Exists\""),
        Case.of(
            "toleration exists with value",
            toleration(tol().withOperator("Exists").withValue("x").build()),
            X0
                + ".tolerations[0].value: Invalid value: \"x\": must be empty for operator `Exists`"),
        Case.of(
            "toleration equal bad value",
            toleration(tol().withOperator("Equal").withValue("-x").build()),
            X0 + ".tolerations[0].value: Invalid value: \"-x\": " + LABEL_VALUE),
        Case.of(
            "toleration bad key",
            toleration(tol().withKey("a/b/c").withOperator("Exists").build()),
            X0 + ".tolerations[0].key: Invalid value: \"a/b/c\": " + LABEL_KEY_SLASHES),
        Case.of(
            "toleration bad effect",
            toleration(tol().withOperator("Exists").withEffect("PreferNoSchedule").build()),
            X0
                + ".tolerations[0].effect: Unsupported value: \"PreferNoSchedule\": supported"
                + " values: \"NoExecute\", \"NoSchedule\", \"None\""),
        // constraints
        Case.of(
            "match constraint",
            c ->
                devices(c)
                    .setConstraints(
                        List.of(
                            new DeviceConstraintBuilder()
                                .withRequests("req-0")
                                .withMatchAttribute("gpu.example.com/model")
                                .build()))),
        Case.of(
            "distinct constraint",
            c ->
                devices(c)
                    .setConstraints(
                        List.of(
                            new DeviceConstraintBuilder()
                                .withDistinctAttribute("gpu.example.com/model")
                                .build()))),
        Case.of(
            "constraint for subrequest",
            firstAvailable("sub-0")
                .andThen(c ->
                    devices(c)
                        .setConstraints(
                            List.of(
                                new DeviceConstraintBuilder()
                                    .withRequests("req-0/sub-0")
                                    .withMatchAttribute("gpu.example.com/model")
                                    .build())))),
        Case.of(
            "constraint without attribute",
            c -> devices(c).setConstraints(List.of(new DeviceConstraintBuilder().build())),
            "spec.devices.constraints[0]: Required value: exactly one of \"matchAttribute\" or"
                + " \"distinctAttribute\" is required, but multiple fields are set"),
        Case.of(
            "constraint unknown request",
            c ->
                devices(c)
                    .setConstraints(
                        List.of(
                            new DeviceConstraintBuilder()
                                .withRequests("other", "req-0/sub", "a/b/c", "req-0", "req-0")
                                .withMatchAttribute("gpu.example.com/model")
                                .build())),
            "spec.devices.constraints[0].requests[0]: Invalid value: \"other\": " + REQUEST_REF,
            "spec.devices.constraints[0].requests[1]: Invalid value: \"req-0/sub\": " + REQUEST_REF,
            "spec.devices.constraints[0].requests[2]: Invalid value: \"a/b/c\": " + REQUEST_REF,
            "spec.devices.constraints[0].requests[4]: Duplicate value: \"req-0\""),
        Case.of(
            "constraint bad request ref name",
            c ->
                devices(c)
                    .setConstraints(
                        List.of(
                            new DeviceConstraintBuilder()
                                .withRequests("Req")
                                .withMatchAttribute("gpu.example.com/model")
                                .build())),
            "spec.devices.constraints[0].requests[0]: Invalid value: \"Req\": " + DNS_LABEL,
            "spec.devices.constraints[0].requests[0]: Invalid value: \"Req\": " + REQUEST_REF),
        Case.of(
            "match attribute without domain",
            c ->
                devices(c)
                    .setConstraints(
                        List.of(new DeviceConstraintBuilder().withMatchAttribute("model").build())),
            "spec.devices.constraints[0].matchAttribute: Invalid value: \"model\": a fully"
                + " qualified name must be a domain and a name separated by a slash"),
        Case.of(
            "match attribute empty parts",
            c ->
                devices(c)
                    .setConstraints(
                        List.of(new DeviceConstraintBuilder().withMatchAttribute("/").build())),
            "spec.devices.constraints[0].matchAttribute: Invalid value: \"\": the domain must not"
                + " be empty",
            "spec.devices.constraints[0].matchAttribute: Invalid value: \"\": the name must not be"
                + " empty"),
        Case.of(
            "distinct attribute bad id",
            c ->
                devices(c)
                    .setConstraints(
                        List.of(
                            new DeviceConstraintBuilder()
                                .withDistinctAttribute("x.com/1abc")
                                .build())),
            "spec.devices.constraints[0].distinctAttribute: Invalid value: \"1abc\": "
                + C_IDENTIFIER),
        Case.of(
            "match attribute id too long",
            c ->
                devices(c)
                    .setConstraints(
                        List.of(
                            new DeviceConstraintBuilder()
                                .withMatchAttribute("x.com/" + "a".repeat(33))
                                .build())),
            "spec.devices.constraints[0].matchAttribute: Too long: may not be more than 32 bytes"),
        Case.of(
            "match attribute with two slashes",
            c ->
                devices(c)
                    .setConstraints(
                        List.of(new DeviceConstraintBuilder().withMatchAttribute("a/b/c").build())),
            "spec.devices.constraints[0].matchAttribute: Invalid value: \"a/b/c\": must not contain"
                + " more than one slash"),
        Case.of(
            "33 constraints",
            c ->
                devices(c)
                    .setConstraints(
                        Fixtures.times(
                            33,
                            i ->
                                new DeviceConstraintBuilder()
                                    .withMatchAttribute("gpu.example.com/model")
                                    .build())),
            "spec.devices.constraints: Too many: 33: must have at most 32 items"),
        // config
        Case.of(
            "opaque config",
            c -> devices(c).setConfig(List.of(opaque(Fixtures.DRIVER, Map.of("a", 1))))),
        Case.of(
            "config without opaque",
            c -> devices(c).setConfig(List.of(new DeviceClaimConfiguration())),
            "spec.devices.config[0].opaque: Required value"),
        Case.of(
            "config without driver and parameters",
            c -> devices(c).setConfig(List.of(opaque(null, null))),
            "spec.devices.config[0].opaque.driver: Required value",
            "spec.devices.config[0].opaque.driver: Invalid value: \"\": " + DNS_SUBDOMAIN,
            "spec.devices.config[0].opaque.parameters: Required value"),
        Case.of(
            "config driver too long",
            c -> devices(c).setConfig(List.of(opaque("a".repeat(64), Map.of()))),
            "spec.devices.config[0].opaque.driver: Too long: may not be more than 63 bytes"),
        Case.of(
            "config upper-case driver is fine",
            c -> devices(c).setConfig(List.of(opaque("GPU.Example.com", Map.of())))),
        Case.of(
            "config parameters not an object",
            c -> devices(c).setConfig(List.of(opaque(Fixtures.DRIVER, List.of(1, 2)))),
            "spec.devices.config[0].opaque.parameters: Invalid value: \"<value omitted>\": must be"
                + " a valid JSON object"),
        Case.of(
            "config parameters too large",
            c ->
                devices(c)
                    .setConfig(
                        List.of(opaque(Fixtures.DRIVER, Map.of("a", "x".repeat(10 * 1024))))),
            "spec.devices.config[0].opaque.parameters: Too long: may not be more than 10240 bytes"),
        Case.of(
            "config for unknown request",
            c ->
                devices(c)
                    .setConfig(
                        List.of(
                            new DeviceClaimConfigurationBuilder(opaque(Fixtures.DRIVER, Map.of()))
                                .withRequests("nope")
                                .build())),
            "spec.devices.config[0].requests[0]: Invalid value: \"nope\": " + REQUEST_REF),
        Case.of(
            "33 configs",
            c -> devices(c).setConfig(Fixtures.times(33, i -> opaque(Fixtures.DRIVER, Map.of()))),
            "spec.devices.config: Too many: 33: must have at most 32 items"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("createCases")
  void create(Case<ResourceClaim> tc) {
    ResourceClaim claim = Fixtures.with(Fixtures.claim(), tc.change());
    assertThat(Fixtures.strings(Validation.validateResourceClaim(claim)))
        .containsExactlyElementsOf(tc.expected());
  }

  static Stream<Case<ResourceClaim>> updateCases() {
    return Stream.of(
        Case.of("unchanged", c -> {}),
        Case.of("labels may change", c -> c.getMetadata().setLabels(Map.of("a", "b"))),
        Case.of(
            "spec is immutable",
            c -> exactly(c).setCount(2L),
            "spec: Invalid value: {\"devices\":{\"requests\":[{\"exactly\":{\"allocationMode\":"
                + "\"ExactCount\",\"count\":2,\"deviceClassName\":\"gpu\"},\"name\":\"req-0\"}]}}:"
                + " field is immutable"),
        Case.of(
            "name is immutable",
            c -> c.getMetadata().setName("other"),
            "metadata.name: Invalid value: \"other\": field is immutable"),
        Case.of(
            "resourceVersion required",
            c -> c.getMetadata().setResourceVersion(null),
            "metadata.resourceVersion: Invalid value: \"\": must be specified for an update"),
        Case.of(
            "uid is immutable",
            c -> c.getMetadata().setUid("x"),
            "metadata.uid: Invalid value: \"x\": field is immutable"),
        Case.of(
            "generation may not decrease",
            c -> c.getMetadata().setGeneration(0L),
            "metadata.generation: Invalid value: 0: must not be decremented"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updateCases")
  void update(Case<ResourceClaim> tc) {
    ResourceClaim old = Fixtures.claim();
    old.getMetadata().setResourceVersion("1");
    old.getMetadata().setGeneration(1L);
    ResourceClaim claim = Fixtures.claim();
    claim.getMetadata().setResourceVersion("1");
    claim.getMetadata().setGeneration(1L);
    tc.change().accept(claim);
    assertThat(Fixtures.strings(Validation.validateResourceClaimUpdate(claim, old)))
        .containsExactlyElementsOf(tc.expected());
  }
}
