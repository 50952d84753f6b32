package io.jdra.cel;

/**
 * A selector failed at run time for one device: a missing attribute ({@code no such key: model}), a
 * result that is not a bool, an exceeded cost limit, an error from a function. The message is the
 * bare CEL error; callers prefix it with their context, as upstream does ("class gpu.example.com:
 * selector #0: CEL runtime error: no such key: model").
 */
public final class CelEvaluationException extends Exception {
  private static final long serialVersionUID = 1L;

  public CelEvaluationException(String message) {
    super(message);
  }

  public CelEvaluationException(String message, Throwable cause) {
    super(message, cause);
  }
}
