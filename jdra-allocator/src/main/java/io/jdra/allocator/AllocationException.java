package io.jdra.allocator;

/**
 * Allocation could not be attempted or had to stop: unknown class, CEL compile or runtime error,
 * unsupported request, a feature used while its gate is off, "all" devices from an incomplete pool,
 * too many results, invalid pools without a solution, the deadline. Distinct from "cannot allocate"
 * ({@link AllocationOutcome.Unschedulable}). Messages are upstream's.
 *
 * <p>Two kinds a caller must tell apart without parsing the message:
 *
 * <ul>
 *   <li>{@link #isNodeLocal()}: the failure concerns this node only (upstream wraps these in {@code
 *       ErrFailedAllocationOnNode}). A scheduler treats it as "unschedulable on this node" and goes
 *       on with other nodes, surfacing the message only if every node fails.
 *   <li>{@link #isDeadlineExceeded()}: the {@link Deadline} passed (upstream's {@code
 *       context.DeadlineExceeded}); a scheduler reports "timed out trying to allocate devices" for
 *       the node.
 * </ul>
 *
 * Every other exception fails the whole attempt (all nodes), as any other upstream error does.
 */
public final class AllocationException extends Exception {
  private static final long serialVersionUID = 1L;

  private enum Kind {
    FATAL,
    NODE_LOCAL,
    DEADLINE_EXCEEDED
  }

  private final Kind kind;

  /** An error that fails the whole attempt. */
  public AllocationException(String message) {
    this(message, null, Kind.FATAL);
  }

  /** An error that fails the whole attempt, with its cause. */
  public AllocationException(String message, Throwable cause) {
    this(message, cause, Kind.FATAL);
  }

  private AllocationException(String message, Throwable cause, Kind kind) {
    super(message, cause);
    this.kind = kind;
  }

  /** A failure that concerns only the node allocation was attempted for. */
  public static AllocationException nodeLocal(String message) {
    return new AllocationException(message, null, Kind.NODE_LOCAL);
  }

  /** The deadline passed before allocation finished. */
  public static AllocationException deadlineExceeded(String message) {
    return new AllocationException(message, null, Kind.DEADLINE_EXCEEDED);
  }

  /** Whether only this node failed (upstream {@code errors.Is(err, ErrFailedAllocationOnNode)}). */
  public boolean isNodeLocal() {
    return kind == Kind.NODE_LOCAL;
  }

  /** Whether the deadline passed (upstream {@code errors.Is(err, context.DeadlineExceeded)}). */
  public boolean isDeadlineExceeded() {
    return kind == Kind.DEADLINE_EXCEEDED;
  }
}
