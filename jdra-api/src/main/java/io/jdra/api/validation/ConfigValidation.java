package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Checks of opaque device configuration and other embedded raw JSON. */
final class ConfigValidation {
  /** Maximum size of opaque parameters, 10 KiB. */
  static final int OPAQUE_PARAMETERS_MAX_LENGTH = 10 * 1024;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private ConfigValidation() {}

  /** {@code opaque} is required; its driver is a driver name, its parameters a JSON object. */
  static List<FieldError> opaqueConfig(
      OpaqueDeviceConfiguration opaque, FieldPath parent, boolean stored) {
    FieldPath path = parent.child("opaque");
    if (opaque == null) {
      return List.of(FieldError.required(path, ""));
    }
    List<FieldError> errs =
        new ArrayList<>(
            NameValidation.validateDriverName(opaque.getDriver(), path.child("driver")));
    errs.addAll(
        rawExtension(
            opaque.getParameters(),
            path.child("parameters"),
            stored,
            OPAQUE_PARAMETERS_MAX_LENGTH));
    return errs;
  }

  /**
   * Embedded JSON (upstream {@code validateRawExtension}): required, at most {@code maxLength}
   * bytes when new (size measured on the compact JSON), and a JSON object.
   */
  static List<FieldError> rawExtension(
      Object value, FieldPath path, boolean stored, int maxLength) {
    if (value == null) {
      return List.of(FieldError.required(path, ""));
    }
    String json;
    try {
      json = JSON.writeValueAsString(value);
    } catch (RuntimeException e) {
      return List.of(
          FieldError.invalid(
              path, "<value omitted>", "error parsing data as JSON: " + e.getMessage()));
    }
    if (!stored && NameValidation.len(json) > maxLength) {
      return List.of(FieldError.tooLong(path, maxLength));
    }
    if (isJsonNull(value)) {
      return List.of(FieldError.required(path, ""));
    }
    if (!isJsonObject(value)) {
      return List.of(FieldError.invalid(path, "<value omitted>", "must be a valid JSON object"));
    }
    return List.of();
  }

  private static boolean isJsonNull(Object value) {
    return value instanceof JsonNode n && n.isNull();
  }

  private static boolean isJsonObject(Object value) {
    if (value instanceof Map<?, ?>) {
      return true;
    }
    if (value instanceof JsonNode n) {
      return n.isObject();
    }
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      return false;
    }
    if (value instanceof List<?>) {
      return false;
    }
    // Any other bean (e.g. a typed model object) serialises to a JSON object.
    return JSON.valueToTree(value).isObject();
  }
}
