package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks of one device in a ResourceSlice: name, attributes (qualified names, exactly one value,
 * string and version limits, list values), capacity, taints, counter consumption, per-device node
 * selection and binding conditions; plus the qualified-name rules shared with claims.
 */
final class DeviceValidation {
  static final int MAX_DOMAIN_LENGTH = 63;
  static final int MAX_ID_LENGTH = 32;
  static final int ATTRIBUTE_KEY_MAX_LENGTH = MAX_DOMAIN_LENGTH + 1 + MAX_ID_LENGTH;
  static final int MAX_ATTRIBUTES_AND_CAPACITIES = 32;
  static final int MAX_ATTRIBUTE_VALUES = 48;
  static final int ATTRIBUTE_VALUE_MAX_LENGTH = 64;
  static final int TAINTS_MAX = 16;
  static final int COUNTER_CONSUMPTIONS_MAX = 2;
  static final int COUNTERS_PER_CONSUMPTION_MAX = 32;
  static final int BINDING_CONDITIONS_MAX = 4;

  private static final String NUMERIC = "(0|[1-9]\\d*)";
  private static final String PRE_RELEASE = "(0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)";
  private static final String BUILD = "[0-9a-zA-Z-]+";
  private static final Pattern SEMVER =
      Pattern.compile(
          NUMERIC
              + "\\."
              + NUMERIC
              + "\\."
              + NUMERIC
              + "(-"
              + PRE_RELEASE
              + "(\\."
              + PRE_RELEASE
              + ")*)?"
              + "(\\+"
              + BUILD
              + "(\\."
              + BUILD
              + ")*)?");

  private DeviceValidation() {}

  static List<FieldError> device(
      Device device, Device oldDevice, FieldPath path, Boolean perDeviceNodeSelection) {
    List<FieldError> errs =
        new ArrayList<>(
            NameValidation.validateDns1123Label(
                MetaValidation.nz(device.getName()), path.child("name")));
    Map<String, DeviceAttribute> attributes = nm(device.getAttributes());
    Map<String, DeviceCapacity> capacity = nm(device.getCapacity());
    int total = attributes.size() + capacity.size();
    if (total > MAX_ATTRIBUTES_AND_CAPACITIES) {
      errs.add(
          FieldError.invalid(
              path,
              total,
              "the total number of attributes and capacities must not exceed "
                  + MAX_ATTRIBUTES_AND_CAPACITIES));
    }
    int values = attributeValueCount(attributes);
    if (values > MAX_ATTRIBUTE_VALUES) {
      errs.add(
          FieldError.invalid(
              path,
              values,
              "the total number of attribute values must not exceed " + MAX_ATTRIBUTE_VALUES));
    }
    errs.addAll(
        Lists.map(
            attributes,
            -1,
            ATTRIBUTE_KEY_MAX_LENGTH,
            DeviceValidation::qualifiedName,
            DeviceValidation::attribute,
            path.child("attributes")));
    if (oldDevice == null || !Objects.equals(nm(oldDevice.getCapacity()), capacity)) {
      boolean multi = Boolean.TRUE.equals(device.getAllowMultipleAllocations());
      errs.addAll(
          Lists.map(
              capacity,
              -1,
              ATTRIBUTE_KEY_MAX_LENGTH,
              DeviceValidation::qualifiedName,
              (c, p) -> capacity(c, p, multi),
              path.child("capacity")));
    }
    if (oldDevice == null
        || !Objects.equals(Lists.nn(oldDevice.getTaints()), Lists.nn(device.getTaints()))) {
      errs.addAll(
          Lists.slice(
              device.getTaints(),
              TAINTS_MAX,
              (t, p) -> TaintValidation.taint(t, null, p),
              path.child("taints")));
    }
    errs.addAll(
        Lists.set(
            device.getConsumesCounters(),
            COUNTER_CONSUMPTIONS_MAX,
            DeviceValidation::counterConsumption,
            c -> MetaValidation.nz(c.getCounterSet()),
            path.child("consumesCounters")));
    errs.addAll(nodeSelection(device, path, perDeviceNodeSelection));
    errs.addAll(
        bindingConditions(
            device.getBindingConditions(), device.getBindingFailureConditions(), path));
    return errs;
  }

  private static List<FieldError> nodeSelection(
      Device device, FieldPath path, Boolean perDeviceNodeSelection) {
    List<FieldError> errs = new ArrayList<>();
    String detail =
        "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when"
            + " `perDeviceNodeSelection` is set to true in the ResourceSlice spec";
    if (Boolean.TRUE.equals(perDeviceNodeSelection)) {
      List<String> set = new ArrayList<>();
      if (device.getNodeName() != null) {
        if (!device.getNodeName().isEmpty()) {
          set.add("`nodeName`");
          errs.addAll(
              NameValidation.validateNodeName(device.getNodeName(), path.child("nodeName")));
        } else {
          errs.add(FieldError.invalid(path.child("nodeName"), "", "must not be empty"));
        }
      }
      if (device.getNodeSelector() != null) {
        set.add("`nodeSelector`");
        errs.addAll(
            NodeSelectorValidation.nodeSelector(
                device.getNodeSelector(), path.child("nodeSelector")));
      }
      if (device.getAllNodes() != null) {
        if (device.getAllNodes()) {
          set.add("`allNodes`");
        } else {
          errs.add(
              FieldError.invalid(
                  path.child("allNodes"), false, "must be either unset or set to true"));
        }
      }
      if (set.isEmpty()) {
        errs.add(FieldError.required(path, detail));
      } else if (set.size() > 1) {
        errs.add(FieldError.invalid(path, "{" + String.join(", ", set) + "}", detail));
      }
    } else if (device.getNodeName() != null
        || device.getNodeSelector() != null
        || device.getAllNodes() != null) {
      errs.add(
          FieldError.invalid(
              path,
              null,
              "`nodeName`, `nodeSelector` and `allNodes` can only be set if"
                  + " `perDeviceNodeSelection` is set to true in the ResourceSlice spec"));
    }
    return errs;
  }

  /** Attribute values, counting each item of a list value. */
  private static int attributeValueCount(Map<String, DeviceAttribute> attributes) {
    int n = 0;
    for (DeviceAttribute a : attributes.values()) {
      int items =
          size(a.getBools()) + size(a.getInts()) + size(a.getStrings()) + size(a.getVersions());
      n += items == 0 ? 1 : items;
    }
    return n;
  }

  static boolean hasListValue(DeviceAttribute a) {
    return !Lists.nn(a.getBools()).isEmpty()
        || !Lists.nn(a.getInts()).isEmpty()
        || !Lists.nn(a.getStrings()).isEmpty()
        || !Lists.nn(a.getVersions()).isEmpty();
  }

  private static int size(List<?> l) {
    return l == null ? 0 : l.size();
  }

  static List<FieldError> attribute(DeviceAttribute a, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    int fields = 0;
    if (a.getBool() != null) {
      fields++;
    }
    if (a.getInt() != null) {
      fields++;
    }
    if (a.getString() != null) {
      fields++;
      errs.addAll(stringValue(a.getString(), path.child("string")));
    }
    if (a.getVersion() != null) {
      fields++;
      errs.addAll(versionValue(a.getVersion(), path.child("version")));
    }
    // fabric8 initialises list fields to empty lists, so an empty list counts as unset (upstream
    // would report "must not be empty if specified" for an explicit empty list).
    if (!Lists.nn(a.getBools()).isEmpty()) {
      fields++;
    }
    if (!Lists.nn(a.getInts()).isEmpty()) {
      fields++;
    }
    if (!Lists.nn(a.getStrings()).isEmpty()) {
      fields++;
      for (int i = 0; i < a.getStrings().size(); i++) {
        errs.addAll(stringValue(a.getStrings().get(i), path.child("strings").index(i)));
      }
    }
    if (!Lists.nn(a.getVersions()).isEmpty()) {
      fields++;
      for (int i = 0; i < a.getVersions().size(); i++) {
        errs.addAll(versionValue(a.getVersions().get(i), path.child("versions").index(i)));
      }
    }
    if (fields == 0) {
      errs.add(FieldError.invalid(path, "", "exactly one value must be specified"));
    } else if (fields > 1) {
      errs.add(FieldError.invalid(path, a, "exactly one value must be specified"));
    }
    return errs;
  }

  private static List<FieldError> stringValue(String value, FieldPath path) {
    if (NameValidation.len(MetaValidation.nz(value)) > ATTRIBUTE_VALUE_MAX_LENGTH) {
      return List.of(FieldError.tooLong(path, ATTRIBUTE_VALUE_MAX_LENGTH));
    }
    return List.of();
  }

  private static List<FieldError> versionValue(String value, FieldPath path) {
    String v = MetaValidation.nz(value);
    List<FieldError> errs = new ArrayList<>();
    if (!SEMVER.matcher(v).matches()) {
      errs.add(
          FieldError.invalid(path, v, "must be a string compatible with semver.org spec 2.0.0"));
    }
    if (NameValidation.len(v) > ATTRIBUTE_VALUE_MAX_LENGTH) {
      errs.add(FieldError.tooLong(path, ATTRIBUTE_VALUE_MAX_LENGTH));
    }
    return errs;
  }

  private static List<FieldError> capacity(DeviceCapacity c, FieldPath path, boolean multi) {
    if (c.getRequestPolicy() == null) {
      return List.of();
    }
    if (!multi) {
      return List.of(
          FieldError.forbidden(
              path.child("requestPolicy"), "allowMultipleAllocations must be true"));
    }
    return CapacityPolicyValidation.requestPolicy(
        c.getValue(), c.getRequestPolicy(), path.child("requestPolicy"));
  }

  private static List<FieldError> counterConsumption(DeviceCounterConsumption c, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    String set = MetaValidation.nz(c.getCounterSet());
    if (set.isEmpty()) {
      errs.add(FieldError.required(path.child("counterSet"), ""));
    } else {
      errs.addAll(NameValidation.validateDns1123Label(set, path.child("counterSet")));
    }
    errs.addAll(counters(c.getCounters(), COUNTERS_PER_CONSUMPTION_MAX, path.child("counters")));
    return errs;
  }

  /** A non-empty map of counters with DNS-label names, at most {@code max} entries. */
  static List<FieldError> counters(Map<String, Counter> counters, int max, FieldPath path) {
    if (counters == null || counters.isEmpty()) {
      return List.of(FieldError.required(path, ""));
    }
    return Lists.map(
        counters,
        max,
        NameValidation.DNS1123_LABEL_MAX_LENGTH,
        NameValidation::validateDns1123Label,
        (v, p) -> List.of(),
        path);
  }

  /** An attribute or capacity name: a C identifier, optionally prefixed by a domain and a slash. */
  static List<FieldError> qualifiedName(String name, FieldPath path) {
    String n = MetaValidation.nz(name);
    String[] parts = n.split("/", -1);
    List<FieldError> errs = new ArrayList<>();
    switch (parts.length) {
      case 1 -> errs.addAll(cIdentifier(parts[0], path));
      case 2 -> {
        if (parts[0].isEmpty()) {
          errs.add(FieldError.invalid(path, "", "the domain must not be empty"));
        } else {
          errs.addAll(NameValidation.validateDriverName(parts[0], path));
        }
        if (parts[1].isEmpty()) {
          errs.add(FieldError.invalid(path, "", "the name must not be empty"));
        } else {
          errs.addAll(cIdentifier(parts[1], path));
        }
      }
      default -> errs.add(FieldError.invalid(path, n, "must not contain more than one slash"));
    }
    return errs;
  }

  /** A qualified name which must have a domain. */
  static List<FieldError> fullyQualifiedName(String name, FieldPath path) {
    String n = MetaValidation.nz(name);
    List<FieldError> errs = new ArrayList<>(qualifiedName(n, path));
    if (!n.contains("/")) {
      errs.add(
          FieldError.invalid(
              path, n, "a fully qualified name must be a domain and a name separated by a slash"));
    }
    return errs;
  }

  private static List<FieldError> cIdentifier(String id, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    if (NameValidation.len(id) > MAX_ID_LENGTH) {
      errs.add(FieldError.tooLong(path, MAX_ID_LENGTH));
    }
    errs.addAll(NameValidation.invalidEach(path, id, NameValidation.isCIdentifier(id)));
    return errs;
  }

  /**
   * Binding conditions and binding failure conditions: at most 4 each, label-name format, unique,
   * not overlapping, and each list requires the other.
   */
  static List<FieldError> bindingConditions(
      List<String> conditions, List<String> failureConditions, FieldPath path) {
    List<String> bc = Lists.nn(conditions);
    List<String> bfc = Lists.nn(failureConditions);
    FieldPath bcPath = path.child("bindingConditions");
    FieldPath bfcPath = path.child("bindingFailureConditions");
    List<FieldError> errs = new ArrayList<>();
    errs.addAll(Lists.slice(bc, BINDING_CONDITIONS_MAX, NameValidation::validateLabelName, bcPath));
    errs.addAll(
        Lists.slice(bfc, BINDING_CONDITIONS_MAX, NameValidation::validateLabelName, bfcPath));
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < bc.size(); i++) {
      if (!seen.add(bc.get(i))) {
        errs.add(FieldError.duplicate(bcPath.index(i), bc.get(i)));
      }
    }
    Set<String> seenFailure = new HashSet<>();
    Set<String> all = new HashSet<>(bc);
    for (int i = 0; i < bfc.size(); i++) {
      String c = bfc.get(i);
      if (!seenFailure.add(c)) {
        errs.add(FieldError.duplicate(bfcPath.index(i), c));
      }
      if (all.contains(c)) {
        errs.add(
            FieldError.invalid(
                bfcPath.index(i),
                c,
                "bindingFailureConditions must not overlap with bindingConditions"));
      }
    }
    if (bc.isEmpty() && !bfc.isEmpty()) {
      errs.add(
          FieldError.invalid(
              bcPath, null, "bindingConditions are required to use bindingFailureConditions"));
    }
    if (bfc.isEmpty() && !bc.isEmpty()) {
      errs.add(
          FieldError.invalid(
              bfcPath, null, "bindingFailureConditions are required to use bindingConditions"));
    }
    return errs;
  }

  static <V> Map<String, V> nm(Map<String, V> m) {
    return m == null ? Map.of() : m;
  }
}
