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

  static String clean(String message) {
    String m = PREFIX.matcher(message).replaceFirst("");
    Matcher missing = MISSING_KEY.matcher(m);
    if (missing.matches()) {
      return "no such key: " + missing.group(1);
    }
    return m;
  }
}
