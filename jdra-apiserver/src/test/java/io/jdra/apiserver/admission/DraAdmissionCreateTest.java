package io.jdra.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import io.jdra.api.validation.FieldError;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.registry.ResourceType;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * A claim create whose spec an earlier create already admitted ({@link DraAdmission#claimCreate})
 * gives the errors and the exact bytes of admission on the whole decoded claim, case by case.
 */
class DraAdmissionCreateTest {
  private static final ResourceType CLAIMS =
      ResourceRegistry.builtIn().find("resource.k8s.io", "v1", "resourceclaims").orElseThrow();

  private static final String PLAIN =
      """
      {"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com"}}]}}
      """;

  private static final String FULL =
      """
      {"devices":{"requests":[
        {"name":"a","exactly":{"deviceClassName":"gpu.example.com","allocationMode":"ExactCount",
          "count":2,"adminAccess":false,
          "selectors":[{"cel":{"expression":"device.driver == 'gpu.example.com'"}}],
          "tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}]}},
        {"name":"b","firstAvailable":[{"name":"x","deviceClassName":"gpu.example.com"},
          {"name":"y","deviceClassName":"gpu.example.com","allocationMode":"All"}]}],
       "constraints":[{"requests":["a"],"matchAttribute":"gpu.example.com/model"}],
       "config":[{"requests":["a"],"opaque":{"driver":"gpu.example.com",
         "parameters":{"z":1,"a":[true,null,"s"],"m":{"q":"r"}}}}]}}
      """;

  record Case(String name, FeatureGates gates, String spec, Consumer<ObjectNode> change) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> cases() {
    FeatureGates on = FeatureGates.defaults();
    FeatureGates off =
        on.with(Feature.DRA_DEVICE_TAINTS, false)
            .with(Feature.DRA_ADMIN_ACCESS, false)
            .with(Feature.DRA_CONSUMABLE_CAPACITY, false);
    Consumer<ObjectNode> none = c -> {};
    return Stream.of(
            new Case("plain", on, PLAIN, none),
            new Case("full", on, FULL, none),
            new Case("full, gates off", off, FULL, none),
            new Case("plain, bad name", on, PLAIN, c -> meta(c).put("name", "Not_A_Name")),
            new Case(
                "full, bad label and owner",
                on,
                FULL,
                c -> {
                  meta(c).putObject("labels").put("a b", "c");
                  meta(c).putArray("ownerReferences").addObject().put("kind", "Pod");
                }),
            new Case(
                "plain, status sent",
                on,
                PLAIN,
                c ->
                    c.set(
                        "status",
                        Json.MAPPER.readTree(
                            "{\"reservedFor\":[{\"resource\":\"pods\",\"name\":\"p\","
                                + "\"uid\":\"u\"}]}"))),
            new Case(
                "full, admin access in a namespace without the label",
                on,
                FULL.replace("\"adminAccess\":false", "\"adminAccess\":true"),
                none))
        .map(Arguments::of);
  }

  @ParameterizedTest
  @MethodSource("cases")
  void sameAsWholeClaim(Case c) {
    DraAdmission dra = new DraAdmission(c.gates(), Clock.systemUTC());
    // the first claim with the spec: admitted whole, and its spec remembered when it is valid
    List<FieldError> first = dra.claimCreate(request(claim("first", c.spec(), x -> {})));
    assertThat(dra.knownCreatedSpecs()).isEqualTo(first.isEmpty() ? 1 : 0);
    if (!c.name().contains("admin access")) {
      assertThat(first).isEmpty(); // so the second create takes the remembered spec
    }

    ObjectNode fast = claim("second", c.spec(), c.change());
    List<FieldError> fastErrors = dra.claimCreate(request(fast));
    ObjectNode whole = claim("second", c.spec(), c.change());
    List<FieldError> wholeErrors = dra.claimDecoded(request(whole), true, false);

    assertThat(fastErrors).isEqualTo(wholeErrors);
    assertThat(new String(Json.bytes(fast), StandardCharsets.UTF_8))
        .isEqualTo(new String(Json.bytes(whole), StandardCharsets.UTF_8));
    // and the remembered spec is still what the first create made of it
    ObjectNode third = claim("third", c.spec(), x -> {});
    dra.claimCreate(request(third));
    ObjectNode thirdWhole = claim("third", c.spec(), x -> {});
    dra.claimDecoded(request(thirdWhole), true, false);
    assertThat(Json.bytes(third)).isEqualTo(Json.bytes(thirdWhole));
    if (dra.knownCreatedSpecs() > 0) {
      // the remembered spec a create writes is what parsing it gives (the registry shares such
      // trees with the next write)
      assertThat(Json.written(third.get("spec")).asParsed()).isTrue();
    }
  }

  @ParameterizedTest
  @MethodSource("cases")
  void sharingTheRememberedSpec(Case c) {
    DraAdmission dra = new DraAdmission(c.gates(), Clock.systemUTC(), true);
    DraAdmission copying = new DraAdmission(c.gates(), Clock.systemUTC());
    List<FieldError> first = dra.claimCreate(request(claim("first", c.spec(), x -> {})));
    copying.claimCreate(request(claim("first", c.spec(), x -> {})));
    if (!first.isEmpty()) {
      return;
    }
    ObjectNode second = claim("second", c.spec(), c.change());
    ObjectNode copied = claim("second", c.spec(), c.change());
    assertThat(dra.claimCreate(request(second))).isEqualTo(copying.claimCreate(request(copied)));
    assertThat(Json.bytes(second)).isEqualTo(Json.bytes(copied));
    ObjectNode third = claim("third", c.spec(), x -> {});
    dra.claimCreate(request(third));
    // every claim of the spec holds the one remembered tree
    assertThat(third.get("spec")).isSameAs(second.get("spec"));
  }

  private static Admission.Request request(ObjectNode obj) {
    return new Admission.Request(Admission.Operation.CREATE, CLAIMS, "", obj, null, ns -> Map.of());
  }

  private static ObjectNode claim(String name, String spec, Consumer<ObjectNode> change) {
    ObjectNode c =
        (ObjectNode)
            Json.MAPPER.readTree(
                """
                {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
                 "metadata":{"name":"%s","namespace":"ns","uid":"u-%s",
                  "annotations":{"resource.kubernetes.io/pod-claim-name":"gpu"}},
                 "spec":%s}
                """
                    .formatted(name, name, spec));
    change.accept(c);
    return c;
  }

  private static ObjectNode meta(ObjectNode c) {
    return Json.child(c, "metadata");
  }
}
