package io.jdra.api.validation;

/**
 * The kind of a validation error, as upstream {@code field.ErrorType}: {@link #text()} is what an
 * error message shows, {@link #reason()} is the machine-readable reason used in a Status's {@code
 * details.causes[].reason}.
 */
public enum ErrorType {
  NOT_FOUND("Not found", "FieldValueNotFound"),
  REQUIRED("Required value", "FieldValueRequired"),
  DUPLICATE("Duplicate value", "FieldValueDuplicate"),
  INVALID("Invalid value", "FieldValueInvalid"),
  NOT_SUPPORTED("Unsupported value", "FieldValueNotSupported"),
  FORBIDDEN("Forbidden", "FieldValueForbidden"),
  TOO_LONG("Too long", "FieldValueTooLong"),
  TOO_MANY("Too many", "FieldValueTooMany"),
  INTERNAL("Internal error", "InternalError"),
  TYPE_INVALID("Invalid value", "FieldValueTypeInvalid");

  private final String text;
  private final String reason;

  ErrorType(String text, String reason) {
    this.text = text;
    this.reason = reason;
  }

  /** Human-readable text, e.g. {@code Invalid value}. */
  public String text() {
    return text;
  }

  /** Machine-readable reason, e.g. {@code FieldValueInvalid}. */
  public String reason() {
    return reason;
  }

  /** Whether upstream shows the bad value for this type (it never does for these four). */
  boolean showsValue() {
    return switch (this) {
      case REQUIRED, FORBIDDEN, TOO_LONG, INTERNAL -> false;
      default -> true;
    };
  }
}
