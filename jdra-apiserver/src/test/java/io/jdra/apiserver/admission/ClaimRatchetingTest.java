package io.jdra.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The claim updates admitted on the changed part only ({@link ClaimRatcheting}) give the errors and
 * the admitted tree of admission on the whole decoded claim, case by case.
 */
class ClaimRatchetingTest {
  private static final ResourceType CLAIMS =
      ResourceRegistry.builtIn().find("resource.k8s.io", "v1", "resourceclaims").orElseThrow();

  private static final String ALLOCATION =
      """
      {"devices":{"results":[{"request":"gpu","driver":"gpu.example.com","pool":"node-1",
       "device":"gpu-0"}]},
       "nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name",
       "operator":"In","values":["node-1"]}]}]}}
      """;

  private static final String RESERVED = "[{\"resource\":\"pods\",\"name\":\"p\",\"uid\":\"u1\"}]";

  record Case(
      String name,
      boolean status,
      FeatureGates gates,
      Consumer<ObjectNode> stored,
      Consumer<ObjectNode> write,
      boolean ratcheted) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> cases() {
    FeatureGates on = FeatureGates.defaults();
    FeatureGates noDeviceStatus = on.with(Feature.DRA_RESOURCE_CLAIM_DEVICE_STATUS, false);
    Consumer<ObjectNode> plain = c -> {};
    Consumer<ObjectNode> allocated =
        c -> {
          c.set("status", Json.object());
          ((ObjectNode) c.get("status")).set("allocation", tree(ALLOCATION));
        };
    Consumer<ObjectNode> deleting =
        c -> {
          meta(c).put("deletionTimestamp", "2026-11-26T10:00:00Z");
          finalizer(c, "x.io/keep");
        };
    return Stream.of(
            new Case("finalizer added", false, on, plain, c -> finalizer(c, "x.io/f"), true),
            new Case("bad finalizer", false, on, plain, c -> finalizer(c, "not a name"), true),
            new Case(
                "finalizer added to full metadata in another key order",
                false,
                on,
                c -> {
                  meta(c).put("generation", 1);
                  meta(c).putObject("labels").put("app", "x");
                  meta(c)
                      .putArray("ownerReferences")
                      .addObject()
                      .put("apiVersion", "v1")
                      .put("kind", "Pod")
                      .put("name", "p")
                      .put("uid", "u1")
                      .put("controller", true)
                      .put("blockOwnerDeletion", true);
                },
                c -> {
                  ObjectNode reordered = Json.object();
                  List<String> keys = new java.util.ArrayList<>(meta(c).propertyNames());
                  java.util.Collections.reverse(keys);
                  keys.forEach(k -> reordered.set(k, meta(c).get(k)));
                  c.set("metadata", reordered);
                  finalizer(c, "x.io/f");
                },
                true),
            new Case(
                "finalizer added with an empty label map",
                false,
                on,
                plain,
                c -> {
                  meta(c).putObject("labels");
                  finalizer(c, "x.io/f");
                },
                true),
            new Case(
                "finalizer added with a null label",
                false,
                on,
                plain,
                c -> {
                  meta(c).putObject("labels").putNull("a");
                  finalizer(c, "x.io/f");
                },
                true),
            new Case(
                "bad label",
                false,
                on,
                plain,
                c -> meta(c).putObject("labels").put("a", "-"),
                true),
            // the fields whose rules read them alone: left unchecked only when stored as written
            new Case(
                "bad annotation next to the stored labels and owner reference",
                false,
                on,
                ClaimRatchetingTest::fullMetadata,
                c -> {
                  meta(c).withObject("annotations").put("-bad", "x");
                  finalizer(c, "x.io/f");
                },
                true),
            new Case(
                "second controller next to the stored annotations and labels",
                false,
                on,
                ClaimRatchetingTest::fullMetadata,
                c -> {
                  meta(c)
                      .withArray("ownerReferences")
                      .addObject()
                      .put("apiVersion", "v1")
                      .put("kind", "Pod")
                      .put("name", "q")
                      .put("uid", "u2")
                      .put("controller", true);
                  finalizer(c, "x.io/f");
                },
                true),
            new Case(
                "finalizer removed from full metadata",
                false,
                on,
                c -> {
                  fullMetadata(c);
                  finalizer(c, "x.io/f");
                },
                c -> meta(c).remove("finalizers"),
                true),
            new Case("uid changed", false, on, plain, c -> meta(c).put("uid", "other"), true),
            // each field of the stored metadata that the update rules read (the rest is not
            // decoded)
            new Case("name changed", false, on, plain, c -> meta(c).put("name", "other"), true),
            new Case(
                "namespace changed", false, on, plain, c -> meta(c).put("namespace", "o"), true),
            new Case(
                "generation decremented",
                false,
                on,
                c -> meta(c).put("generation", 5),
                c -> meta(c).put("generation", 4),
                true),
            new Case(
                "creation timestamp changed",
                false,
                on,
                plain,
                c -> meta(c).put("creationTimestamp", "2026-11-26T09:00:01Z"),
                true),
            new Case(
                "deletion timestamp set",
                false,
                on,
                plain,
                c -> meta(c).put("deletionTimestamp", "2026-11-26T10:00:00Z"),
                true),
            new Case(
                "deletion grace period changed",
                false,
                on,
                c -> {
                  meta(c).put("deletionTimestamp", "2026-11-26T10:00:00Z");
                  meta(c).put("deletionGracePeriodSeconds", 30);
                },
                c -> meta(c).put("deletionGracePeriodSeconds", 0),
                true),
            new Case(
                "finalizer kept while deleting",
                false,
                on,
                c -> {
                  meta(c).put("deletionTimestamp", "2026-11-26T10:00:00Z");
                  finalizer(c, "x.io/keep");
                  finalizer(c, "x.io/other");
                },
                c -> ((ObjectNode) meta(c)).withArray("finalizers").remove(1),
                true),
            new Case(
                "labels and owner references changed",
                false,
                on,
                c -> meta(c).putObject("labels").put("app", "x"),
                c -> {
                  meta(c).putObject("labels").put("app", "y");
                  meta(c)
                      .putArray("ownerReferences")
                      .addObject()
                      .put("apiVersion", "v1")
                      .put("kind", "Pod")
                      .put("name", "p")
                      .put("uid", "u1");
                },
                true),
            new Case(
                "managed fields cleared",
                false,
                on,
                plain,
                c -> {
                  meta(c).putArray("managedFields");
                  finalizer(c, "x.io/f");
                },
                true),
            new Case(
                "managed fields invalid",
                false,
                on,
                plain,
                c -> ((ObjectNode) c.at("/metadata/managedFields/0")).put("operation", "Bogus"),
                true),
            new Case(
                "finalizer while deleting", false, on, deleting, c -> finalizer(c, "x.io/f"), true),
            new Case(
                "finalizer on allocated", false, on, allocated, c -> finalizer(c, "a.io/b"), true),
            new Case("spec changed", false, on, plain, c -> request(c).put("name", "other"), false),
            new Case(
                "allocated and reserved", true, on, plain, ClaimRatchetingTest::allocate, true),
            new Case(
                "unknown request",
                true,
                on,
                plain,
                c -> {
                  allocate(c);
                  result(c).put("request", "nope");
                },
                true),
            new Case(
                "status not in encoded form",
                true,
                on,
                plain,
                c -> {
                  allocate(c);
                  status(c).putArray("devices");
                  status(c).putNull("unknownField");
                  ((ObjectNode) c.at("/status/allocation")).putObject("empty");
                },
                true),
            new Case(
                "reserved without allocation",
                true,
                on,
                plain,
                c -> status(c).set("reservedFor", node(RESERVED)),
                true),
            new Case(
                "allocation changed",
                true,
                on,
                allocated,
                c -> result(c).put("device", "gpu-1"),
                true),
            new Case(
                "device status",
                true,
                on,
                plain,
                c -> {
                  allocate(c);
                  status(c).set("devices", node(deviceStatus("gpu-0")));
                },
                true),
            new Case(
                "device status of a device not allocated",
                true,
                on,
                plain,
                c -> {
                  allocate(c);
                  status(c).set("devices", node(deviceStatus("gpu-9")));
                },
                true),
            new Case(
                "device status with the gate off",
                true,
                noDeviceStatus,
                plain,
                c -> {
                  allocate(c);
                  status(c).set("devices", node(deviceStatus("gpu-0")));
                },
                true),
            new Case(
                "reserved while deleting",
                true,
                on,
                c -> {
                  allocated.accept(c);
                  deleting.accept(c);
                },
                c -> status(c).set("reservedFor", node(RESERVED)),
                true),
            new Case(
                "admin access without the namespace label",
                true,
                on,
                c -> Json.child(request(c), "exactly").put("adminAccess", true),
                c -> {
                  allocate(c);
                  result(c).put("adminAccess", true);
                },
                true),
            new Case(
                "deallocated with device status left",
                true,
                on,
                c -> {
                  allocated.accept(c);
                  status(c).set("devices", node(deviceStatus("gpu-0")));
                },
                c -> status(c).remove("allocation"),
                true),
            new Case(
                "released as a controller writes it (empty lists)",
                true,
                on,
                c -> {
                  allocated.accept(c);
                  status(c).set("reservedFor", node(RESERVED));
                },
                c -> {
                  status(c).remove("allocation");
                  status(c).putArray("reservedFor");
                  status(c).putArray("devices");
                },
                true),
            new Case(
                "metadata changed with the status",
                true,
                on,
                plain,
                c -> {
                  allocate(c);
                  finalizer(c, "x.io/f");
                },
                false))
        .map(Arguments::of);
  }

  /**
   * With {@code share} (the registry's built-in admission chain) the write takes the stored spec
   * (and, on a metadata write, status) themselves: the same errors and bytes as copying them, and
   * the stored tree unchanged.
   */
  private static void sharingTheStoredTrees(
      Case c, ObjectNode stored, ObjectNode written, ObjectNode fast, List<FieldError> fastErrors) {
    ObjectNode shared = written.deepCopy();
    ObjectNode old = stored.deepCopy();
    Admission.Request r = request(c, shared, old);
    List<FieldError> errors =
        c.status()
            ? ClaimRatcheting.statusWrite(r, c.gates(), null, true)
            : ClaimRatcheting.metadataWrite(r, true);
    assertThat(errors).isEqualTo(fastErrors);
    assertThat(old).isEqualTo(stored);
    if (errors == null) {
      return;
    }
    assertThat(new String(Json.bytes(shared), StandardCharsets.UTF_8))
        .isEqualTo(new String(Json.bytes(fast), StandardCharsets.UTF_8));
    assertThat(shared.get("spec")).isSameAs(old.get("spec"));
    if (!c.status()) {
      assertThat(shared.get("status")).isSameAs(old.get("status"));
    } else {
      keptStatuses(c, stored, written, fast, fastErrors);
    }
  }

  /**
   * A status write whose stored status an earlier write kept decoded ({@link StoredStatuses}): the
   * same errors and bytes, the kept model unchanged; and the status it stores as sent is kept as
   * decoding it gives it.
   */
  private static void keptStatuses(
      Case c, ObjectNode stored, ObjectNode written, ObjectNode fast, List<FieldError> fastErrors) {
    ObjectNode obj = written.deepCopy();
    ObjectNode old = stored.deepCopy();
    StoredStatuses statuses = new StoredStatuses();
    JsonNode oldStatus = old.get("status");
    if (oldStatus != null) {
      statuses.put(oldStatus, Json.treeToValue(oldStatus, ResourceClaimStatus.class));
    }
    List<FieldError> errors =
        ClaimRatcheting.statusWrite(request(c, obj, old), c.gates(), null, true, statuses);
    assertThat(errors).isEqualTo(fastErrors);
    assertThat(new String(Json.bytes(obj), StandardCharsets.UTF_8))
        .isEqualTo(new String(Json.bytes(fast), StandardCharsets.UTF_8));
    assertThat(old).isEqualTo(stored);
    if (oldStatus != null) {
      assertThat(decodedAgain(statuses.find(oldStatus))).isEqualTo(decodedAgain(oldStatus));
    }
    JsonNode sent = obj.get("status");
    if (c.name().equals("allocated and reserved")) {
      assertThat(statuses.find(sent)).isNotNull(); // the scheduler's allocation, kept
    }
    if (sent != null && sent != oldStatus && statuses.find(sent) != null) {
      assertThat(errors).isEmpty();
      assertThat(decodedAgain(statuses.find(sent))).isEqualTo(decodedAgain(sent));
    }
  }

  /** A status model, or the model of a status tree, encoded. */
  private static JsonNode decodedAgain(Object statusOrTree) {
    Object model =
        statusOrTree instanceof JsonNode n
            ? Json.treeToValue(n, ResourceClaimStatus.class)
            : statusOrTree;
    return Json.MAPPER.valueToTree(model);
  }

  @ParameterizedTest
  @MethodSource("cases")
  void sameAsWholeClaim(Case c) {
    DraAdmission dra = new DraAdmission(c.gates(), Clock.systemUTC());
    ObjectNode stored = stored(dra, c.stored());
    ObjectNode written = stored.deepCopy();
    c.write().accept(written);
    if (c.status() && c.ratcheted()) {
      // as the registry prepares a /status write: the stored object with the new status
      ObjectNode s = stored.deepCopy();
      s.set("status", written.get("status").deepCopy());
      written = s;
    }

    ObjectNode fast = written.deepCopy();
    ObjectNode old = stored.deepCopy();
    Admission.Request ratchetRequest = request(c, fast, old);
    List<FieldError> fastErrors =
        c.status()
            ? ClaimRatcheting.statusWrite(ratchetRequest, c.gates())
            : ClaimRatcheting.metadataWrite(ratchetRequest);
    sharingTheStoredTrees(c, stored, written, fast, fastErrors);
    if (!c.ratcheted()) {
      assertThat(fastErrors).isNull();
      return;
    }
    if (c.status()) {
      // the stored spec taken from the decoded specs, once decoded and once remembered
      DecodedSpecs<ResourceClaimSpec> specs = new DecodedSpecs<>();
      for (int i = 0; i < 2; i++) {
        ObjectNode remembered = written.deepCopy();
        assertThat(
                ClaimRatcheting.statusWrite(
                    request(c, remembered, stored.deepCopy()), c.gates(), specs))
            .isEqualTo(fastErrors);
        assertThat(remembered).isEqualTo(fast);
      }
      assertThat(specs.size()).isEqualTo(1);
      // and only read
      assertThat((JsonNode) Json.MAPPER.valueToTree(specs.find(stored.get("spec"))))
          .isEqualTo(
              Json.MAPPER.valueToTree(
                  Json.treeToValue(stored.get("spec"), ResourceClaimSpec.class)));
    }
    ObjectNode whole = written.deepCopy();
    List<FieldError> wholeErrors =
        dra.claimDecoded(request(c, whole, stored.deepCopy()), false, c.status());

    assertThat(fastErrors).isEqualTo(wholeErrors);
    // the same stored value (key order and number node types aside, which encoding erases)
    assertThat(asStored(fast)).isEqualTo(asStored(whole));
    assertThat(old).isEqualTo(stored);
  }

  private static Admission.Request request(Case c, ObjectNode obj, ObjectNode old) {
    return new Admission.Request(
        Admission.Operation.UPDATE, CLAIMS, c.status() ? "status" : "", obj, old, ns -> Map.of());
  }

  /** A claim as the API server stores it: created through admission, then stamped. */
  private static ObjectNode stored(DraAdmission dra, Consumer<ObjectNode> change) {
    ObjectNode claim =
        tree(
            """
            {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
             "metadata":{"name":"c","namespace":"ns","annotations":{"a.io/b":"c"}},
             "spec":{"devices":{"requests":[{"name":"gpu",
               "exactly":{"deviceClassName":"gpu.example.com"}}]}}}
            """);
    List<FieldError> errs =
        dra.claimDecoded(
            new Admission.Request(
                Admission.Operation.CREATE, CLAIMS, "", claim, null, ns -> Map.of()),
            true,
            false);
    assertThat(errs).isEmpty();
    ObjectNode m = meta(claim);
    m.put("uid", "u-claim");
    m.put("resourceVersion", "7");
    m.put("creationTimestamp", "2026-11-26T09:00:00Z");
    m.putArray("managedFields")
        .addObject()
        .put("manager", "m")
        .put("operation", "Update")
        .put("apiVersion", "resource.k8s.io/v1")
        .put("time", "2026-11-26T09:00:00Z")
        .put("fieldsType", "FieldsV1")
        .putObject("fieldsV1")
        .putObject("f:spec");
    change.accept(claim);
    return claim;
  }

  /** The tree as the store gives it back: encoded, then parsed. */
  private static JsonNode asStored(ObjectNode o) {
    return Json.MAPPER.readTree(Json.bytes(o));
  }

  private static void allocate(ObjectNode c) {
    status(c).set("allocation", tree(ALLOCATION));
    status(c).set("reservedFor", node(RESERVED));
  }

  private static String deviceStatus(String device) {
    return "[{\"driver\":\"gpu.example.com\",\"pool\":\"node-1\",\"device\":\"" + device + "\"}]";
  }

  private static ObjectNode meta(ObjectNode c) {
    return Json.child(c, "metadata");
  }

  private static ObjectNode status(ObjectNode c) {
    return Json.child(c, "status");
  }

  private static ObjectNode request(ObjectNode c) {
    return (ObjectNode) c.at("/spec/devices/requests/0");
  }

  private static ObjectNode result(ObjectNode c) {
    return (ObjectNode) c.at("/status/allocation/devices/results/0");
  }

  /** Labels, annotations and a controller owner reference, as a template's claim has. */
  private static void fullMetadata(ObjectNode c) {
    meta(c).putObject("labels").put("app", "x");
    meta(c).withObject("annotations").put("resource.kubernetes.io/pod-claim-name", "gpu");
    meta(c)
        .putArray("ownerReferences")
        .addObject()
        .put("apiVersion", "v1")
        .put("kind", "Pod")
        .put("name", "p")
        .put("uid", "u1")
        .put("controller", true)
        .put("blockOwnerDeletion", true);
  }

  private static void finalizer(ObjectNode c, String f) {
    meta(c).withArray("finalizers").add(f);
  }

  private static ObjectNode tree(String json) {
    return (ObjectNode) node(json);
  }

  private static JsonNode node(String json) {
    return Json.MAPPER.readTree(json);
  }
}
