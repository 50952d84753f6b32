package io.jdra.apiserver.meta;

/**
 * One entry of {@code Status.details.causes}.
 *
 * @param reason e.g. {@code FieldValueInvalid}
 * @param message e.g. {@code Invalid value: 0: must be greater than zero}
 * @param field e.g. {@code spec.devices.requests[0].exactly.count}
 */
public record Cause(String reason, String message, String field) {
  /** As upstream's field error string: {@code field: message}. */
  @Override
  public String toString() {
    return field == null || field.isEmpty() ? message : field + ": " + message;
  }
}
