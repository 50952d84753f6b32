package io.jdra.api.quantity;

/**
 * A string is not a Kubernetes quantity. The message is exactly the one upstream's {@code
 * resource.ParseQuantity} returns for the same input ({@code ErrFormatWrong}, {@code ErrNumeric} or
 * {@code ErrSuffix}), because clients and tests compare these strings; the offending input is
 * available through {@link #input()}.
 */
public final class QuantityFormatException extends IllegalArgumentException {
  /** The upstream regular expression quoted in {@link Kind#FORMAT_WRONG}'s message. */
  public static final String SPLIT_REGEX = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";

  /** Which of upstream's three parse errors this is. */
  public enum Kind {
    /** Upstream {@code ErrFormatWrong}: the string does not have the shape number + suffix. */
    FORMAT_WRONG("quantities must match the regular expression '" + SPLIT_REGEX + "'"),
    /** Upstream {@code ErrNumeric}: the number part cannot be read. */
    NUMERIC("unable to parse numeric part of quantity"),
    /** Upstream {@code ErrSuffix}: the suffix is not a known SI, binary or exponent suffix. */
    SUFFIX("unable to parse quantity's suffix");

    private final String message;

    Kind(String message) {
      this.message = message;
    }

    /** The exact upstream error text. */
    public String message() {
      return message;
    }
  }

  private final Kind kind;
  private final String input;

  QuantityFormatException(Kind kind, String input) {
    super(kind.message());
    this.kind = kind;
    this.input = input;
  }

  /** Which upstream error this is. */
  public Kind kind() {
    return kind;
  }

  /** The string that failed to parse (may be {@code null} or empty). */
  public String input() {
    return input;
  }
}
