package io.jdra.apiserver.patch;

import java.util.List;
import java.util.Objects;

/**
 * A patch that cannot be applied, carrying what the API server answers: the HTTP status code, the
 * Status {@code reason}, the message and the {@code details.causes}, as kube-apiserver reports them
 * (400 BadRequest for a malformed patch, 409 Conflict for apply conflicts, 413
 * RequestEntityTooLarge, 415 UnsupportedMediaType, 422 Invalid).
 */
public final class PatchException extends Exception {
  private static final long serialVersionUID = 1L;

  /** One {@code details.causes} entry of the Status. Empty strings stand for absent fields. */
  public record Cause(String type, String message, String field) {
    public Cause {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(field, "field");
    }
  }

  private final int code;
  private final String reason;
  private final transient List<Cause> causes;

  PatchException(int code, String reason, String message, List<Cause> causes, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.reason = reason;
    this.causes = List.copyOf(causes);
  }

  static PatchException badRequest(String message) {
    return new PatchException(400, "BadRequest", message, List.of(), null);
  }

  static PatchException badRequest(String message, Throwable cause) {
    return new PatchException(400, "BadRequest", message, List.of(), cause);
  }

  /**
   * 422 as upstream's {@code NewGenericServerResponse(422, ...)}: the generic message, the detail
   * only in the Java cause (upstream drops it too).
   */
  static PatchException unprocessable(String detail) {
    return new PatchException(
        422,
        "Invalid",
        "the server rejected our request due to an error in our request",
        List.of(),
        new IllegalArgumentException(detail));
  }

  static PatchException invalid(String message, List<Cause> causes) {
    return new PatchException(422, "Invalid", message, causes, null);
  }

  static PatchException conflict(String message, List<Cause> causes) {
    return new PatchException(409, "Conflict", message, causes, null);
  }

  static PatchException tooLarge(String message) {
    return new PatchException(
        413, "RequestEntityTooLarge", "Request entity too large: " + message, List.of(), null);
  }

  static PatchException unsupportedMediaType(String message) {
    return new PatchException(415, "UnsupportedMediaType", message, List.of(), null);
  }

  /** The HTTP status code. */
  public int code() {
    return code;
  }

  /** The Status reason, e.g. {@code BadRequest}, {@code Invalid}, {@code Conflict}. */
  public String reason() {
    return reason;
  }

  /** The Status {@code details.causes}, possibly empty. */
  public List<Cause> causes() {
    return causes;
  }
}
