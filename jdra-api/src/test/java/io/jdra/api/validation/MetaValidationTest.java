package io.jdra.api.validation;

import static io.jdra.api.validation.Messages.LABEL_KEY_NAME;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MetaValidationTest {
  private static final FieldPath META = FieldPath.root("metadata");

  static ObjectMeta meta() {
    return new ObjectMetaBuilder().withName("n").withNamespace("ns").build();
  }

  static OwnerReference owner(String kind, String name, Boolean controller) {
    return new OwnerReferenceBuilder()
        .withApiVersion("v1")
        .withKind(kind)
        .withName(name)
        .withUid("u-" + name)
        .withController(controller)
        .build();
  }

  static Stream<Case<ObjectMeta>> createCases() {
    return Stream.of(
        Case.of("valid", m -> {}),
        Case.of(
            "bad namespace",
            m -> m.setNamespace("Ns"),
            "metadata.namespace: Invalid value: \"Ns\": " + Messages.DNS_LABEL),
        Case.of(
            "negative generation",
            m -> m.setGeneration(-1L),
            "metadata.generation: Invalid value: -1: must be greater than or equal to 0"),
        Case.of(
            "bad label key",
            m -> m.setLabels(Map.of("-k", "v")),
            "metadata.labels: Invalid value: \"-k\": " + LABEL_KEY_NAME),
        Case.of("upper-case annotation key", m -> m.setAnnotations(Map.of("Example.com/Key", "v"))),
        Case.of(
            "bad annotation key",
            m -> m.setAnnotations(Map.of("a b", "v")),
            "metadata.annotations: Invalid value: \"a b\": " + LABEL_KEY_NAME),
        Case.of(
            "annotations too large",
            m -> m.setAnnotations(Map.of("k", "v".repeat(256 * 1024))),
            "metadata.annotations: Too long: may not be more than 262144 bytes"),
        Case.of(
            "annotations at the limit",
            m -> m.setAnnotations(Map.of("k", "v".repeat(256 * 1024 - 1)))),
        Case.of(
            "owner reference without fields",
            // fabric8 defaults apiVersion to "v1" and kind to "OwnerReference"; clear them.
            m ->
                m.setOwnerReferences(
                    List.of(new OwnerReferenceBuilder().withApiVersion("").withKind("").build())),
            "metadata.ownerReferences.apiVersion: Invalid value: \"\": version must not be empty",
            "metadata.ownerReferences.kind: Invalid value: \"\": must not be empty",
            "metadata.ownerReferences.name: Invalid value: \"\": must not be empty",
            "metadata.ownerReferences.uid: Invalid value: \"\": must not be empty"),
        Case.of(
            "event owner",
            m -> m.setOwnerReferences(List.of(owner("Event", "e", null))),
            "metadata.ownerReferences: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\","
                + "\"name\":\"e\",\"uid\":\"u-e\"}: /v1, Kind=Event is disallowed from being an owner"),
        Case.of(
            "two controllers",
            m -> m.setOwnerReferences(List.of(owner("Pod", "a", true), owner("Pod", "b", true))),
            "metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
                + "\"name\":\"a\",\"uid\":\"u-a\",\"controller\":true},{\"apiVersion\":\"v1\","
                + "\"kind\":\"Pod\",\"name\":\"b\",\"uid\":\"u-b\",\"controller\":true}]: Only one"
                + " reference can have Controller set to true. Found \"true\" in references for"
                + " Pod/a and Pod/b"),
        Case.of(
            "orphan and foreground finalizers",
            m -> m.setFinalizers(List.of("orphan", "foregroundDeletion")),
            "metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: finalizer"
                + " orphan and foregroundDeletion cannot be both set"),
        Case.of(
            "bad finalizer name",
            m -> m.setFinalizers(List.of("a/b/c")),
            "metadata.finalizers: Invalid value: \"a/b/c\": " + Messages.LABEL_KEY_SLASHES),
        Case.of(
            "managed fields",
            m ->
                m.setManagedFields(
                    List.of(
                        new ManagedFieldsEntryBuilder()
                            .withOperation("Patch")
                            .withFieldsType("FieldsV2")
                            .withManager("m\u0007")
                            .build())),
            "metadata.managedFields[0].operation: Invalid value: \"Patch\": must be `Apply` or"
                + " `Update`",
            "metadata.managedFields[0].fieldsType: Invalid value: \"FieldsV2\": must be `FieldsV1`",
            "metadata.managedFields[0].manager: Invalid value: \"m\\a\": invalid character U+0007"
                + " (at position 1)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("createCases")
  void create(Case<ObjectMeta> tc) {
    ObjectMeta m = Fixtures.with(meta(), tc.change());
    assertThat(
            Fixtures.strings(
                Validation.validateObjectMeta(m, true, NameValidator.DNS_SUBDOMAIN, META)))
        .containsExactlyElementsOf(tc.expected());
  }

  static Stream<Case<ObjectMeta>> updateCases() {
    return Stream.of(
        Case.of("unchanged", m -> {}),
        Case.of(
            "new finalizer while deleting",
            m -> {
              m.setDeletionTimestamp("2026-01-01T00:00:00Z");
              m.setFinalizers(List.of("example.com/a", "example.com/c", "example.com/b"));
            },
            "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being"
                + " deleted, found new finalizers []string{\"example.com/b\", \"example.com/c\"}"),
        Case.of(
            "removing finalizers while deleting",
            m -> {
              m.setDeletionTimestamp("2026-01-01T00:00:00Z");
              m.setFinalizers(List.of());
            }),
        Case.of(
            "immutable fields",
            m -> {
              m.setNamespace("other");
              m.setCreationTimestamp("2026-02-02T00:00:00Z");
              m.setDeletionGracePeriodSeconds(30L);
            },
            "metadata.namespace: Invalid value: \"other\": field is immutable",
            "metadata.creationTimestamp: Invalid value: \"2026-02-02T00:00:00Z\": field is"
                + " immutable",
            "metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable"),
        Case.of(
            "unqualified finalizer",
            m -> m.setFinalizers(List.of("example.com/a", "custom")),
            "metadata.finalizers[1]: Invalid value: \"custom\": name is neither a standard"
                + " finalizer name nor is it fully qualified"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updateCases")
  void update(Case<ObjectMeta> tc) {
    ObjectMeta old = meta();
    old.setResourceVersion("1");
    old.setCreationTimestamp("2026-01-01T00:00:00Z");
    old.setFinalizers(List.of("example.com/a"));
    ObjectMeta m = meta();
    m.setResourceVersion("1");
    m.setCreationTimestamp("2026-01-01T00:00:00Z");
    m.setFinalizers(List.of("example.com/a"));
    tc.change().accept(m);
    if (m.getDeletionTimestamp() != null) {
      old.setDeletionTimestamp(m.getDeletionTimestamp());
    }
    assertThat(Fixtures.strings(MetaValidation.validateObjectMetaUpdate(m, old, META)))
        .containsExactlyElementsOf(tc.expected());
  }
}
