package io.jdra.cel;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns CEL-Java runtime errors into the messages cel-go gives for the same failure. */
final class ErrorMessages {
  private static final Pattern PREFIX = Pattern.compile("^evaluation error(?: at [^:]*:\\d+)?: ");
  private static final Pattern MISSING_KEY =
      Pattern.compile("^key '(.*)' is not present in map\\.?$");

  private ErrorMessages() {}

  static CelEvaluationException runtime(dev.cel.runtime.CelEvaluationException e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof RuntimeCost.LimitExceeded) {
        return new CelEvaluationException(RuntimeCost.MESSAGE, e);
      }
      if (c instanceof DomainsView.AttributeException) {
        return new CelEvaluationException(c.getMessage(), e);
      }
    }
    return new CelEvaluationException(clean(e.getMessage()), e);
  }

  static CelEvaluationException unexpected(RuntimeException e) {
    if (e instanceof DomainsView.AttributeException) {
      return new CelEvaluationException(e.getMessage(), e);
    }
    return new CelEvaluationException(clean(String.valueOf(e.getMessage())), e);
  }

  private static final Pattern NOT_ITERABLE =
      Pattern.compile("^Unexpected iter_range type: class (\\S+)$");
  private static final Pattern NO_OVERLOAD =
      Pattern.compile("^No matching overload for function '([^']*)'\\..*$", Pattern.DOTALL);

  static String clean(String message) {
    String m = PREFIX.matcher(message).replaceFirst("");
    Matcher missing = MISSING_KEY.matcher(m);
    if (missing.matches()) {
      return "no such key: " + missing.group(1);
    }
    Matcher notIterable = NOT_ITERABLE.matcher(m);
    if (notIterable.matches()) {
      return "got '" + goTypeName(notIterable.group(1)) + "', expected iterable type";
    }
    Matcher noOverload = NO_OVERLOAD.matcher(m);
    if (noOverload.matches()) {
      return "no such overload: " + noOverload.group(1);
    }
    return switch (m) {
      case "/ by zero" -> "division by zero";
      case "long overflow", "integer overflow" -> "integer overflow";
      default -> m;
    };
  }

  /** cel-go's Go type of a value (%T), for the Java class holding it. */
  private static String goTypeName(String javaClass) {
    return switch (javaClass) {
      case "java.lang.Long" -> "types.Int";
      case "java.lang.String" -> "types.String";
      case "java.lang.Boolean" -> "types.Bool";
      case "java.lang.Double" -> "types.Double";
      case "com.google.common.primitives.UnsignedLong" -> "types.Uint";
      case "io.jdra.cel.Semver" -> "cel.Semver";
      case "io.jdra.cel.QuantityValue" -> "cel.Quantity";
      default -> javaClass;
    };
  }
}
