package io.jdra.cli;

/**
 * A failure caused by what the user asked for (bad input file, unknown object, ...): printed as one
 * line without a stack trace. The message names what was wrong, where, and why.
 */
public class UserException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  public UserException(String message) {
    this(message, Errors.EXIT_ERROR, null);
  }

  public UserException(String message, Throwable cause) {
    this(message, Errors.EXIT_ERROR, cause);
  }

  /** A user-facing failure with a specific exit code (e.g. 2: "cannot allocate"). */
  public UserException(String message, int exitCode, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
