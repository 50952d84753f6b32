package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * Object metadata checks as upstream's {@code ValidateObjectMeta}, {@code ValidateObjectMetaUpdate}
 * and {@code ValidateTemplateObjectMeta} (apimachinery plus the core finalizer rule), and {@code
 * metav1} condition checks. Stateless and thread-safe.
 */
public final class MetaValidation {
  /** Upstream {@code FieldImmutableErrorMsg}. */
  public static final String FIELD_IMMUTABLE = "field is immutable";

  /** Total size of all annotation keys and values, 256 KiB. */
  public static final int TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

  private static final Set<String> STANDARD_FINALIZERS =
      Set.of("kubernetes", "orphan", "foregroundDeletion");
  private static final String CONDITION_REASON_FMT = "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?";
  private static final java.util.regex.Pattern CONDITION_REASON =
      java.util.regex.Pattern.compile(CONDITION_REASON_FMT);
  private static final String CONDITION_REASON_ERR =
      "a condition reason must start with alphabetic character, optionally followed by a string of"
          + " alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

  private MetaValidation() {}

  /**
   * Metadata of a new object: name or generateName, namespace (required when {@code namespaced},
   * forbidden otherwise), generation, labels, annotations, owner references, finalizers, managed
   * fields.
   */
  public static List<FieldError> validateObjectMeta(
      ObjectMeta meta, boolean namespaced, NameValidator nameValidator, FieldPath path) {
    ObjectMeta m = meta == null ? new ObjectMeta() : meta;
    List<FieldError> errs = new ArrayList<>();
    String generateName = nz(m.getGenerateName());
    if (!generateName.isEmpty()) {
      errs.addAll(
          NameValidation.invalidEach(
              path.child("generateName"),
              generateName,
              nameValidator.validate(generateName, true)));
    }
    String name = nz(m.getName());
    if (name.isEmpty()) {
      errs.add(FieldError.required(path.child("name"), "name or generateName is required"));
    } else {
      errs.addAll(
          NameValidation.invalidEach(
              path.child("name"), name, nameValidator.validate(name, false)));
    }
    errs.addAll(common(m, namespaced, path));
    errs.addAll(kubeFinalizerNames(m.getFinalizers(), path.child("finalizers")));
    return errs;
  }

  /**
   * Metadata of a new object whose name check produces field errors itself (upstream {@code
   * ValidateObjectMetaWithOpts}, used for DeviceClass).
   */
  static List<FieldError> validateObjectMetaWithErrors(
      ObjectMeta meta,
      boolean namespaced,
      BiFunction<FieldPath, String, List<FieldError>> nameCheck,
      FieldPath path) {
    ObjectMeta m = meta == null ? new ObjectMeta() : meta;
    List<FieldError> errs = new ArrayList<>();
    String generateName = nz(m.getGenerateName());
    String name = nz(m.getName());
    if (!generateName.isEmpty() && name.isEmpty()) {
      errs.add(
          FieldError.internal(
              path.child("name"),
              "generateName was specified ("
                  + GoFormat.quote(generateName)
                  + "), but no name was generated"));
    }
    if (name.isEmpty()) {
      errs.add(FieldError.required(path.child("name"), "name or generateName is required"));
    } else {
      errs.addAll(nameCheck.apply(path.child("name"), name));
    }
    errs.addAll(common(m, namespaced, path));
    errs.addAll(kubeFinalizerNames(m.getFinalizers(), path.child("finalizers")));
    return errs;
  }

  private static List<FieldError> common(ObjectMeta m, boolean namespaced, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    String namespace = nz(m.getNamespace());
    if (namespaced) {
      if (namespace.isEmpty()) {
        errs.add(FieldError.required(path.child("namespace"), ""));
      } else {
        errs.addAll(
            NameValidation.invalidEach(
                path.child("namespace"),
                namespace,
                NameValidation.nameIsDnsLabel(namespace, false)));
      }
    } else if (!namespace.isEmpty()) {
      errs.add(FieldError.forbidden(path.child("namespace"), "not allowed on this type"));
    }
    long generation = m.getGeneration() == null ? 0 : m.getGeneration();
    if (generation < 0) {
      errs.add(
          FieldError.invalid(
              path.child("generation"), generation, "must be greater than or equal to 0"));
    }
    errs.addAll(validateLabels(m.getLabels(), path.child("labels")));
    errs.addAll(validateAnnotations(m.getAnnotations(), path.child("annotations")));
    errs.addAll(validateOwnerReferences(m.getOwnerReferences(), path.child("ownerReferences")));
    errs.addAll(validateFinalizers(m.getFinalizers(), path.child("finalizers")));
    errs.addAll(validateManagedFields(m.getManagedFields(), path.child("managedFields")));
    return errs;
  }

  /**
   * An update of metadata: no new finalizers while deleting, resourceVersion set, generation not
   * decremented, immutable name, namespace, uid, creation and deletion timestamps, deletion grace
   * period; labels, annotations, owner references and managed fields re-checked.
   */
  public static List<FieldError> validateObjectMetaUpdate(
      ObjectMeta newMeta, ObjectMeta oldMeta, FieldPath path) {
    ObjectMeta n = newMeta == null ? new ObjectMeta() : newMeta;
    ObjectMeta o = oldMeta == null ? new ObjectMeta() : oldMeta;
    List<FieldError> errs = new ArrayList<>();
    if (o.getDeletionTimestamp() != null) {
      Set<String> extra = new TreeSet<>(list(n.getFinalizers()));
      extra.removeAll(list(o.getFinalizers()));
      if (!extra.isEmpty()) {
        errs.add(
            FieldError.forbidden(
                path.child("finalizers"),
                "no new finalizers can be added if the object is being deleted, found new"
                    + " finalizers "
                    + goStringSlice(extra)));
      }
    }
    if (nz(n.getResourceVersion()).isEmpty()) {
      errs.add(
          FieldError.invalid(
              path.child("resourceVersion"),
              nz(n.getResourceVersion()),
              "must be specified for an update"));
    }
    long newGen = n.getGeneration() == null ? 0 : n.getGeneration();
    long oldGen = o.getGeneration() == null ? 0 : o.getGeneration();
    if (newGen < oldGen) {
      errs.add(FieldError.invalid(path.child("generation"), newGen, "must not be decremented"));
    }
    immutable(errs, nz(n.getName()), nz(o.getName()), path.child("name"));
    immutable(errs, nz(n.getNamespace()), nz(o.getNamespace()), path.child("namespace"));
    immutable(errs, nz(n.getUid()), nz(o.getUid()), path.child("uid"));
    immutable(
        errs, n.getCreationTimestamp(), o.getCreationTimestamp(), path.child("creationTimestamp"));
    immutable(
        errs, n.getDeletionTimestamp(), o.getDeletionTimestamp(), path.child("deletionTimestamp"));
    immutable(
        errs,
        n.getDeletionGracePeriodSeconds(),
        o.getDeletionGracePeriodSeconds(),
        path.child("deletionGracePeriodSeconds"));
    errs.addAll(validateLabels(n.getLabels(), path.child("labels")));
    errs.addAll(validateAnnotations(n.getAnnotations(), path.child("annotations")));
    errs.addAll(validateOwnerReferences(n.getOwnerReferences(), path.child("ownerReferences")));
    errs.addAll(validateManagedFields(n.getManagedFields(), path.child("managedFields")));
    errs.addAll(kubeFinalizerNames(n.getFinalizers(), path.child("finalizers")));
    return errs;
  }

  private static void immutable(List<FieldError> errs, Object newV, Object oldV, FieldPath path) {
    if (!Objects.equals(newV, oldV)) {
      errs.add(FieldError.invalid(path, newV, FIELD_IMMUTABLE));
    }
  }

  /**
   * Metadata embedded in a template (ResourceClaimTemplate {@code spec.metadata}): labels and
   * annotations are checked, every other field is forbidden ({@code cannot be set}).
   */
  public static List<FieldError> validateTemplateObjectMeta(ObjectMeta meta, FieldPath path) {
    if (meta == null) {
      return List.of();
    }
    List<FieldError> errs = new ArrayList<>();
    errs.addAll(validateAnnotations(meta.getAnnotations(), path.child("annotations")));
    errs.addAll(validateLabels(meta.getLabels(), path.child("labels")));
    // Same order as the Go struct fields of ObjectMeta; names are lower-cased like upstream does.
    Map<String, Boolean> set = new LinkedHashMap<>();
    set.put("name", !nz(meta.getName()).isEmpty());
    set.put("generateName", !nz(meta.getGenerateName()).isEmpty());
    set.put("namespace", !nz(meta.getNamespace()).isEmpty());
    set.put("selfLink", !nz(meta.getSelfLink()).isEmpty());
    set.put("uID", !nz(meta.getUid()).isEmpty());
    set.put("resourceVersion", !nz(meta.getResourceVersion()).isEmpty());
    set.put("generation", meta.getGeneration() != null && meta.getGeneration() != 0);
    set.put("creationTimestamp", meta.getCreationTimestamp() != null);
    set.put("deletionTimestamp", meta.getDeletionTimestamp() != null);
    set.put("deletionGracePeriodSeconds", meta.getDeletionGracePeriodSeconds() != null);
    set.put("ownerReferences", !list(meta.getOwnerReferences()).isEmpty());
    set.put("finalizers", !list(meta.getFinalizers()).isEmpty());
    set.put("managedFields", !list(meta.getManagedFields()).isEmpty());
    set.forEach((field, isSet) -> {
      if (isSet) {
        errs.add(FieldError.forbidden(path.child(field), "cannot be set"));
      }
    });
    return errs;
  }

  /** Label keys (qualified names) and values, all reported at {@code path}. */
  public static List<FieldError> validateLabels(Map<String, String> labels, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    if (labels == null) {
      return errs;
    }
    labels.forEach((k, v) -> {
      errs.addAll(NameValidation.validateLabelName(k, path));
      errs.addAll(NameValidation.invalidEach(path, nz(v), NameValidation.isLabelValue(nz(v))));
    });
    return errs;
  }

  /** Annotation keys (qualified names, case-insensitive) and their total size (256 KiB). */
  public static List<FieldError> validateAnnotations(
      Map<String, String> annotations, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    if (annotations == null) {
      return errs;
    }
    long total = 0;
    for (Map.Entry<String, String> e : annotations.entrySet()) {
      String k = e.getKey();
      errs.addAll(
          NameValidation.invalidEach(
              path, k, NameValidation.isQualifiedName(k.toLowerCase(Locale.ROOT))));
      total += NameValidation.len(k) + NameValidation.len(nz(e.getValue()));
    }
    if (total > TOTAL_ANNOTATION_SIZE_LIMIT) {
      errs.add(FieldError.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT));
    }
    return errs;
  }

  /** Owner references: apiVersion, kind, name, uid, banned owners, at most one controller. */
  static List<FieldError> validateOwnerReferences(List<OwnerReference> refs, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    String firstController = "";
    for (OwnerReference ref : list(refs)) {
      String apiVersion = nz(ref.getApiVersion());
      String[] gv = parseGroupVersion(apiVersion);
      String kind = nz(ref.getKind());
      if (gv[1].isEmpty()) {
        errs.add(
            FieldError.invalid(path.child("apiVersion"), apiVersion, "version must not be empty"));
      }
      if (kind.isEmpty()) {
        errs.add(FieldError.invalid(path.child("kind"), kind, "must not be empty"));
      }
      if (nz(ref.getName()).isEmpty()) {
        errs.add(FieldError.invalid(path.child("name"), "", "must not be empty"));
      }
      if (nz(ref.getUid()).isEmpty()) {
        errs.add(FieldError.invalid(path.child("uid"), "", "must not be empty"));
      }
      if (gv[0].isEmpty() && gv[1].equals("v1") && kind.equals("Event")) {
        errs.add(
            FieldError.invalid(
                path,
                ownerReferenceJson(ref),
                "/v1, Kind=Event is disallowed from being an owner"));
      }
      if (Boolean.TRUE.equals(ref.getController())) {
        String current = kind + "/" + nz(ref.getName());
        if (!firstController.isEmpty()) {
          errs.add(
              FieldError.invalid(
                  path,
                  new FieldError.RawJson(
                      "["
                          + String.join(
                              ",",
                              list(refs).stream()
                                  .map(MetaValidation::ownerReferenceJson)
                                  .map(FieldError.RawJson::json)
                                  .toList())
                          + "]"),
                  "Only one reference can have Controller set to true. Found \"true\" in"
                      + " references for "
                      + firstController
                      + " and "
                      + current));
        } else {
          firstController = current;
        }
      }
    }
    return errs;
  }

  /** {group, version} as upstream {@code FromAPIVersionAndKind}; both empty when unparsable. */
  private static String[] parseGroupVersion(String apiVersion) {
    if (apiVersion.isEmpty()) {
      return new String[] {"", ""};
    }
    String[] parts = apiVersion.split("/", -1);
    return switch (parts.length) {
      case 1 -> new String[] {"", parts[0]};
      case 2 -> new String[] {parts[0], parts[1]};
      default -> new String[] {"", ""};
    };
  }

  /** An owner reference as Go's {@code json.Marshal} of {@code metav1.OwnerReference} prints it. */
  private static FieldError.RawJson ownerReferenceJson(OwnerReference ref) {
    StringBuilder sb = new StringBuilder("{");
    sb.append("\"apiVersion\":").append(GoFormat.json(nz(ref.getApiVersion())));
    sb.append(",\"kind\":").append(GoFormat.json(nz(ref.getKind())));
    sb.append(",\"name\":").append(GoFormat.json(nz(ref.getName())));
    sb.append(",\"uid\":").append(GoFormat.json(nz(ref.getUid())));
    if (ref.getController() != null) {
      sb.append(",\"controller\":").append(ref.getController());
    }
    if (ref.getBlockOwnerDeletion() != null) {
      sb.append(",\"blockOwnerDeletion\":").append(ref.getBlockOwnerDeletion());
    }
    return new FieldError.RawJson(sb.append('}').toString());
  }

  /** Finalizer names are qualified names; orphan and foregroundDeletion exclude each other. */
  static List<FieldError> validateFinalizers(List<String> finalizers, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    boolean orphan = false;
    boolean foreground = false;
    for (String f : list(finalizers)) {
      errs.addAll(NameValidation.invalidEach(path, f, NameValidation.isQualifiedName(f)));
      orphan |= f.equals("orphan");
      foreground |= f.equals("foregroundDeletion");
    }
    if (orphan && foreground) {
      errs.add(
          FieldError.invalid(
              path, finalizers, "finalizer orphan and foregroundDeletion cannot be both set"));
    }
    return errs;
  }

  private static List<FieldError> kubeFinalizerNames(List<String> finalizers, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    List<String> fs = list(finalizers);
    for (int i = 0; i < fs.size(); i++) {
      String f = fs.get(i);
      if (!f.contains("/") && !STANDARD_FINALIZERS.contains(f)) {
        errs.add(
            FieldError.invalid(
                path.index(i),
                f,
                "name is neither a standard finalizer name nor is it fully qualified"));
      }
    }
    return errs;
  }

  static List<FieldError> validateManagedFields(List<ManagedFieldsEntry> entries, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    List<ManagedFieldsEntry> es = list(entries);
    for (int i = 0; i < es.size(); i++) {
      ManagedFieldsEntry e = es.get(i);
      FieldPath p = path.index(i);
      String op = nz(e.getOperation());
      if (!op.equals("Apply") && !op.equals("Update")) {
        errs.add(FieldError.invalid(p.child("operation"), op, "must be `Apply` or `Update`"));
      }
      String fieldsType = nz(e.getFieldsType());
      if (!fieldsType.isEmpty() && !fieldsType.equals("FieldsV1")) {
        errs.add(FieldError.invalid(p.child("fieldsType"), fieldsType, "must be `FieldsV1`"));
      }
      String manager = nz(e.getManager());
      if (NameValidation.len(manager) > 128) {
        errs.add(FieldError.tooLong(p.child("manager"), 128));
      }
      errs.addAll(nonPrintable(manager, p.child("manager")));
      if (NameValidation.len(nz(e.getSubresource())) > 256) {
        errs.add(FieldError.tooLong(p.child("subresource"), 256));
      }
    }
    return errs;
  }

  /** One error per non-printable character, at its UTF-8 byte position (Go's {@code %#U}). */
  private static List<FieldError> nonPrintable(String s, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    int bytePos = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (!GoFormat.isPrint(cp)) {
        errs.add(
            FieldError.invalid(
                path, s, String.format("invalid character U+%04X (at position %d)", cp, bytePos)));
      }
      bytePos +=
          new String(Character.toChars(cp))
              .getBytes(java.nio.charset.StandardCharsets.UTF_8)
              .length;
      i += Character.charCount(cp);
    }
    return errs;
  }

  /**
   * {@code metav1validation.ValidateConditions}: unique types, each with a qualified-name type,
   * status True/False/Unknown, non-negative observedGeneration, lastTransitionTime, a reason (at
   * most 1024 bytes) and a message of at most 32 KiB.
   */
  public static List<FieldError> validateConditions(List<Condition> conditions, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    List<Condition> cs = list(conditions);
    for (int i = 0; i < cs.size(); i++) {
      Condition c = cs.get(i);
      FieldPath p = path.index(i);
      String type = nz(c.getType());
      if (!seen.add(type)) {
        errs.add(FieldError.duplicate(p.child("type"), type));
      }
      errs.addAll(validateCondition(c, p));
    }
    return errs;
  }

  private static List<FieldError> validateCondition(Condition c, FieldPath p) {
    List<FieldError> errs = new ArrayList<>();
    errs.addAll(NameValidation.validateLabelName(nz(c.getType()), p.child("type")));
    String status = nz(c.getStatus());
    if (!Set.of("True", "False", "Unknown").contains(status)) {
      errs.add(
          FieldError.notSupported(p.child("status"), status, List.of("False", "True", "Unknown")));
    }
    if (c.getObservedGeneration() != null && c.getObservedGeneration() < 0) {
      errs.add(
          FieldError.invalid(
              p.child("observedGeneration"),
              c.getObservedGeneration(),
              "must be greater than or equal to zero"));
    }
    if (nz(c.getLastTransitionTime()).isEmpty()) {
      errs.add(FieldError.required(p.child("lastTransitionTime"), ""));
    }
    String reason = nz(c.getReason());
    if (reason.isEmpty()) {
      errs.add(FieldError.required(p.child("reason"), ""));
    } else {
      if (!CONDITION_REASON.matcher(reason).matches()) {
        errs.add(
            FieldError.invalid(
                p.child("reason"),
                reason,
                NameValidation.regexError(
                    CONDITION_REASON_ERR,
                    CONDITION_REASON_FMT,
                    "my_name",
                    "MY_NAME",
                    "MyName",
                    "ReasonA,ReasonB",
                    "ReasonA:ReasonB")));
      }
      if (NameValidation.len(reason) > 1024) {
        errs.add(FieldError.tooLong(p.child("reason"), 1024));
      }
    }
    if (NameValidation.len(nz(c.getMessage())) > 32 * 1024) {
      errs.add(FieldError.tooLong(p.child("message"), 32 * 1024));
    }
    return errs;
  }

  /** Go's {@code %#v} of a {@code []string}: {@code []string{"a", "b"}}. */
  static String goStringSlice(Iterable<String> values) {
    List<String> quoted = new ArrayList<>();
    values.forEach(v -> quoted.add(GoFormat.quote(v)));
    return "[]string{" + String.join(", ", quoted) + "}";
  }

  static String nz(String s) {
    return s == null ? "" : s;
  }

  static <T> List<T> list(List<T> l) {
    return l == null ? List.of() : l;
  }
}
