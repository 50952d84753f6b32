package io.jdra.scheduler.framework;

import java.util.List;

/**
 * The result of running a plugin (upstream {@code fwk.Status}). Immutable. A null or {@link
 * #success()} status means success. The codes matter to the scheduler:
 *
 * <ul>
 *   <li>{@link Code#UNSCHEDULABLE}: the pod does not fit now; a cluster event or preemption may
 *       change that, so the pod waits for events in the unschedulable pool.
 *   <li>{@link Code#UNSCHEDULABLE_AND_UNRESOLVABLE}: the pod does not fit this node, and nothing
 *       but a change of the node itself can help; PostFilter does not try this node.
 *   <li>{@link Code#ERROR}: something went wrong (API call, timeout, bug); the pod is retried with
 *       backoff and the whole attempt is abandoned.
 *   <li>{@link Code#SKIP}: the plugin has nothing to do for this pod (PreFilter/PreScore/PreBind).
 *   <li>{@link Code#PENDING}: the pod waits for something outside the scheduler (PreEnqueue).
 * </ul>
 */
public final class Status {
  /** Status codes, with upstream's names. */
  public enum Code {
    SUCCESS("Success"),
    ERROR("Error"),
    UNSCHEDULABLE("Unschedulable"),
    UNSCHEDULABLE_AND_UNRESOLVABLE("UnschedulableAndUnresolvable"),
    WAIT("Wait"),
    SKIP("Skip"),
    PENDING("Pending");

    private final String upstream;

    Code(String upstream) {
      this.upstream = upstream;
    }

    /** The upstream name, for logs. */
    public String upstreamName() {
      return upstream;
    }
  }

  private static final Status SUCCESS = new Status(Code.SUCCESS, List.of(), null, null);
  private static final Status SKIP = new Status(Code.SKIP, List.of(), null, null);

  private final Code code;
  private final List<String> reasons;
  private final String plugin;
  private final Throwable error;

  private Status(Code code, List<String> reasons, String plugin, Throwable error) {
    this.code = code;
    this.reasons = reasons;
    this.plugin = plugin;
    this.error = error;
  }

  public static Status success() {
    return SUCCESS;
  }

  public static Status skip() {
    return SKIP;
  }

  public static Status of(Code code, String... reasons) {
    return new Status(code, List.of(reasons), null, null);
  }

  public static Status unschedulable(String... reasons) {
    return of(Code.UNSCHEDULABLE, reasons);
  }

  public static Status unresolvable(String... reasons) {
    return of(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reasons);
  }

  public static Status pending(String... reasons) {
    return of(Code.PENDING, reasons);
  }

  /** An error; its message is the single reason. */
  public static Status error(Throwable err) {
    return new Status(Code.ERROR, List.of(String.valueOf(err.getMessage())), null, err);
  }

  public static Status error(String message) {
    return new Status(Code.ERROR, List.of(message), null, new RuntimeException(message));
  }

  /** This status attributed to a plugin (the plugin that failed is what requeueing looks at). */
  public Status withPlugin(String name) {
    // A plugin's shared status that already names it (one per rejected node) is used as it is.
    return name != null && name.equals(plugin) ? this : new Status(code, reasons, name, error);
  }

  public Code code() {
    return code;
  }

  public List<String> reasons() {
    return reasons;
  }

  /** The plugin that returned this status, or null. */
  public String plugin() {
    return plugin;
  }

  /** The error for {@link Code#ERROR}, else null. */
  public Throwable error() {
    return error;
  }

  public boolean isSuccess() {
    return code == Code.SUCCESS;
  }

  public boolean isSkip() {
    return code == Code.SKIP;
  }

  public boolean isError() {
    return code == Code.ERROR;
  }

  /** Whether the pod was rejected: unschedulable, unresolvable or pending (upstream IsRejected). */
  public boolean isRejected() {
    return code == Code.UNSCHEDULABLE
        || code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE
        || code == Code.PENDING;
  }

  /** The reasons joined by ", ", as upstream's {@code Status.Message}. */
  public String message() {
    return String.join(", ", reasons);
  }

  /** Whether a status (null meaning success) is a success. */
  public static boolean ok(Status s) {
    return s == null || s.isSuccess();
  }

  @Override
  public String toString() {
    return code.upstreamName()
        + (plugin == null ? "" : "[" + plugin + "]")
        + (reasons.isEmpty() ? "" : ": " + message());
  }
}
