package io.jdra.api.validation;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One validation error, formatted exactly like upstream {@code field.Error}: {@link #toString()}
 * gives {@code <field>: <errorBody>}, e.g. {@code spec.devices.requests[0].exactly.count: Invalid
 * value: 0: must be greater than zero}.
 *
 * <p>The bad value prints as upstream prints it: strings quoted like Go's {@code %q}, numbers and
 * booleans bare, {@code null} as {@code null}, {@link #OMITTED} not at all, lists, maps and model
 * objects as JSON (model objects with their {@code resource.k8s.io/v1} JSON field names). The value
 * is never shown for {@link ErrorType#REQUIRED}, {@link ErrorType#FORBIDDEN}, {@link
 * ErrorType#TOO_LONG} and {@link ErrorType#INTERNAL}. Immutable when the bad value is.
 *
 * @param type the kind of error
 * @param field the field path as printed, e.g. {@code spec.devices.requests[0].name}
 * @param badValue the offending value (see above), may be {@code null}
 * @param detail the explanation, may be empty but not {@code null}
 */
public record FieldError(ErrorType type, String field, Object badValue, String detail) {

  /** A bad value that upstream leaves out of the message ({@code field.OmitValueType}). */
  public static final Object OMITTED =
      new Object() {
        @Override
        public String toString() {
          return "<omitted>";
        }
      };

  /** Checks the mandatory components. */
  public FieldError {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(detail, "detail");
  }

  /** A value that is already JSON text and is shown as is (for pre-rendered structures). */
  public record RawJson(String json) {
    /** Checks that the text is present. */
    public RawJson {
      Objects.requireNonNull(json, "json");
    }
  }

  /** {@code Required value: <detail>} as upstream {@code field.Required}. */
  public static FieldError required(FieldPath path, String detail) {
    return new FieldError(ErrorType.REQUIRED, path.toString(), "", detail);
  }

  /** {@code Invalid value: <value>: <detail>} as upstream {@code field.Invalid}. */
  public static FieldError invalid(FieldPath path, Object value, String detail) {
    return new FieldError(ErrorType.INVALID, path.toString(), value, detail);
  }

  /** {@code Not found: <value>} as upstream {@code field.NotFound}. */
  public static FieldError notFound(FieldPath path, Object value) {
    return new FieldError(ErrorType.NOT_FOUND, path.toString(), value, "");
  }

  /** {@code Duplicate value: <value>} as upstream {@code field.Duplicate}. */
  public static FieldError duplicate(FieldPath path, Object value) {
    return new FieldError(ErrorType.DUPLICATE, path.toString(), value, "");
  }

  /** {@code Forbidden: <detail>} as upstream {@code field.Forbidden}. */
  public static FieldError forbidden(FieldPath path, String detail) {
    return new FieldError(ErrorType.FORBIDDEN, path.toString(), "", detail);
  }

  /**
   * {@code Unsupported value: <value>: supported values: "a", "b"} as upstream {@code
   * field.NotSupported}; the supported values are quoted in the given order.
   */
  public static FieldError notSupported(FieldPath path, Object value, List<String> validValues) {
    String detail =
        validValues.isEmpty()
            ? ""
            : "supported values: "
                + validValues.stream().map(GoFormat::quote).collect(Collectors.joining(", "));
    return new FieldError(ErrorType.NOT_SUPPORTED, path.toString(), value, detail);
  }

  /** {@code Too long: may not be more than <max> bytes} as upstream {@code field.TooLong}. */
  public static FieldError tooLong(FieldPath path, int maxLength) {
    String detail;
    if (maxLength >= 0) {
      detail = "may not be more than " + maxLength + (maxLength == 1 ? " byte" : " bytes");
    } else {
      detail = "value is too long";
    }
    return new FieldError(ErrorType.TOO_LONG, path.toString(), "<value omitted>", detail);
  }

  /**
   * {@code Too many: <actual>: must have at most <max> items} as upstream {@code field.TooMany}.
   */
  public static FieldError tooMany(FieldPath path, int actual, int max) {
    String detail;
    if (max >= 0) {
      detail = "must have at most " + max + (max == 1 ? " item" : " items");
    } else {
      detail = "has too many items";
    }
    Object value = actual >= 0 ? (Object) actual : OMITTED;
    return new FieldError(ErrorType.TOO_MANY, path.toString(), value, detail);
  }

  /** {@code Internal error: <message>} as upstream {@code field.InternalError}. */
  public static FieldError internal(FieldPath path, String message) {
    return new FieldError(ErrorType.INTERNAL, path.toString(), null, message);
  }

  /** The message without the field, as upstream {@code ErrorBody()}. */
  public String errorBody() {
    StringBuilder s = new StringBuilder(type.text());
    if (type.showsValue() && badValue != OMITTED) {
      s.append(": ").append(GoFormat.value(badValue));
    }
    if (!detail.isEmpty()) {
      s.append(": ").append(detail);
    }
    return s.toString();
  }

  /** This error with its field path prefixed, e.g. to nest a template's errors. */
  public FieldError withField(String newField) {
    return new FieldError(type, newField, badValue, detail);
  }

  /** {@code <field>: <errorBody>}, as upstream {@code Error()}. */
  @Override
  public String toString() {
    return field + ": " + errorBody();
  }
}
