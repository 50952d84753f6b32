package io.jdra.cel;

import java.util.List;

/**
 * Why an expression did not compile.
 *
 * @param kind what went wrong, to map onto a field error (INVALID -> Invalid value, TOO_COMPLEX ->
 *     Forbidden, TOO_LONG -> Too long, INTERNAL -> Internal error)
 * @param detail the message as upstream words it, e.g. {@code compilation failed: ERROR:
 *     <input>:1:1: undeclared reference to 'x' (in container '')} followed by the source line and a
 *     caret line; {@code must evaluate to bool or the unknown type, not int}; {@code too complex,
 *     exceeds cost limit}
 * @param issues the individual parser/checker issues with positions (empty for other kinds)
 */
public record CelCompileError(Kind kind, String detail, List<Issue> issues) {
  public enum Kind {
    INVALID,
    TOO_LONG,
    TOO_COMPLEX,
    INTERNAL
  }

  /** One issue at a 1-based line and column (0 when unknown). */
  public record Issue(int line, int column, String message) {}

  public CelCompileError {
    issues = List.copyOf(issues);
  }

  @Override
  public String toString() {
    return detail;
  }
}
